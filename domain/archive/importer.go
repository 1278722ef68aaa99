package archive

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"

	"arbitre/domain/classique/tournoiclassique"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/repository"
	"arbitre/domain/eventstore/streamname"
)

// The event types of an import, recorded in the stream
// "archive-<genre>-<tournoi>": the file it came from, then one event per
// duplicate game or classique match holding its lines in columns, each
// line naming its line of the file. Imports recorded before the columns
// have one event per line (TypeResultatDuplicate, TypeResultatClassique),
// still read.
const (
	TypeImportOuvert      = "archive.import_ouvert"
	TypePartieDuplicate   = "archive.partie_duplicate"
	TypeMatchClassique    = "archive.match_classique"
	TypeResultatDuplicate = "archive.resultat_duplicate"
	TypeResultatClassique = "archive.resultat_classique"
)

// ImportOuvert says where the tournament's imported results come from: the
// file's name and its SHA-256, and how many lines it held.
type ImportOuvert struct {
	Tournoi   string `json:"tournoi"`
	Nom       string `json:"nom"`
	Genre     Genre  `json:"genre"`
	Date      string `json:"date"`
	Fichier   string `json:"fichier"`
	Empreinte string `json:"empreinte"`
	Lignes    int    `json:"lignes"`
	// Exempt is what a bye counts in the classique tournament (absent
	// from the imports recorded before it: the default one).
	Exempt *tournoiclassique.Exempt `json:"exempt,omitempty"`
}

// ResultatDuplicate is one line of an imported duplicate file, as imports
// recorded it before PartieDuplicate.
type ResultatDuplicate struct {
	Ligne int `json:"ligne"`
	LigneDuplicate
}

// ResultatClassique is one line of an imported classique file, as imports
// recorded it before MatchClassique.
type ResultatClassique struct {
	Ligne int `json:"ligne"`
	LigneClassique
}

// RegisterEvents declares the archive's event types in r.
func RegisterEvents(r *eventstore.Registry) error {
	return errors.Join(
		eventstore.Register[ImportOuvert](r, TypeImportOuvert, 1),
		eventstore.Register[PartieDuplicate](r, TypePartieDuplicate, 1),
		eventstore.Register[MatchClassique](r, TypeMatchClassique, 1),
		eventstore.Register[ResultatDuplicate](r, TypeResultatDuplicate, 1),
		eventstore.Register[ResultatClassique](r, TypeResultatClassique, 1),
	)
}

// Bilan is what an import did.
type Bilan struct {
	Tournoi   string
	Genre     Genre
	Lignes    int
	Empreinte string
	// DejaImporte: the same file was imported before; nothing was written.
	DejaImporte bool
}

// Importer checks the whole file (Lire: CSV or JSON), then records it as one batch in
// the tournament's archive stream: every line or none. The same file again
// writes nothing (DejaImporte); another file for a tournament already
// imported, or for a tournament played on this server, is refused
// (ALREADY_EXISTS).
func Importer(ctx context.Context, f repository.Streams, fichier string, contenu []byte, md eventstore.Metadata) (Bilan, error) {
	i, err := preparer(Fichier{Nom: fichier, Contenu: contenu})
	if err != nil {
		return i.b, err
	}
	if ecrire, err := i.verifier(ctx, f); !ecrire || err != nil {
		return i.b, err
	}
	err = f.Save(ctx, i.stream, 0, i.evenements, md)
	if errors.Is(err, eventstore.ErrConflict) {
		// Another import of the tournament landed first: the same file is
		// done, another one is refused.
		i.b.DejaImporte, err = dejaImporte(ctx, f, i.stream, i.b)
	}
	return i.b, err
}

// Fichier is a file to import: its name and its content.
type Fichier struct {
	Nom     string
	Contenu []byte
}

// ImporterLot imports several files as Importer does each, checked first
// and recorded in one batch of the store (eventstore.AppendBatch): on the
// SQLite store, every file or none, for one commit instead of one per
// file (a federation's history is tens of thousands of them). A file
// already imported, or twice in the lot, writes nothing (its Bilan says
// DejaImporte); one refused refuses the lot, its name in the error.
func ImporterLot(ctx context.Context, f repository.Streams, fichiers []Fichier, md eventstore.Metadata) ([]Bilan, error) {
	imports := make([]aImporter, len(fichiers))
	bilans := func() []Bilan {
		b := make([]Bilan, len(imports))
		for k, i := range imports {
			b[k] = i.b
		}
		return b
	}
	for k, fichier := range fichiers {
		var err error
		if imports[k], err = preparer(fichier); err != nil {
			return bilans(), fmt.Errorf("%s : %w", fichier.Nom, err)
		}
	}
	for essai := 0; ; essai++ {
		var nouveaux []repository.BatchPart
		premier := map[string]Bilan{}
		for k := range imports {
			i := &imports[k]
			if b, ok := premier[i.stream]; ok {
				if b.Empreinte != i.b.Empreinte {
					return bilans(), &erreur.Erreur{Code: CodeAlreadyExists, Message: fmt.Sprintf("%s : le tournoi %s %s est aussi dans un autre fichier du lot (empreinte %.12s) : un seul fichier par tournoi",
						i.nom, i.b.Genre, i.b.Tournoi, b.Empreinte)}
				}
				i.b.DejaImporte = true
				continue
			}
			premier[i.stream] = i.b
			ecrire, err := i.verifier(ctx, f)
			if err != nil {
				return bilans(), fmt.Errorf("%s : %w", i.nom, err)
			}
			if ecrire {
				nouveaux = append(nouveaux, repository.BatchPart{Stream: i.stream, Events: i.evenements})
			}
		}
		err := f.SaveBatch(ctx, nouveaux, md)
		if errors.Is(err, eventstore.ErrConflict) && essai == 0 {
			// Another import of one of the tournaments landed first:
			// checked again, the same file is done, another is refused.
			continue
		}
		return bilans(), err
	}
}

// aImporter is a file read and checked, and the events that record it.
type aImporter struct {
	nom        string
	b          Bilan
	stream     string
	evenements []any
}

// preparer reads the whole file (Lire) and makes the events that record it.
func preparer(fichier Fichier) (aImporter, error) {
	d, numeros, err := Lire(fichier.Contenu)
	if err != nil {
		return aImporter{nom: fichier.Nom}, err
	}
	somme := sha256.Sum256(fichier.Contenu)
	i := aImporter{nom: fichier.Nom, b: Bilan{Tournoi: d.Tournoi, Genre: d.Genre, Lignes: len(numeros), Empreinte: hex.EncodeToString(somme[:])}}
	if i.stream, err = streamname.ArchiveStream(string(d.Genre), d.Tournoi); err != nil {
		return i, err
	}
	i.evenements = []any{ImportOuvert{Tournoi: d.Tournoi, Nom: d.Nom, Genre: d.Genre, Date: d.Date, Fichier: fichier.Nom,
		Empreinte: i.b.Empreinte, Lignes: i.b.Lignes, Exempt: d.Exempt}}
	if d.Genre == GenreClassique {
		i.evenements = append(i.evenements, matchsClassiques(d.Classique, numeros)...)
	} else {
		i.evenements = append(i.evenements, partiesDuplicates(d.Duplicate, numeros)...)
	}
	return i, nil
}

// verifier tells whether the file is to be written: not when the store
// holds it already (DejaImporte); another file of the tournament, or the
// tournament played on this server, is ALREADY_EXISTS.
func (i *aImporter) verifier(ctx context.Context, f repository.Streams) (bool, error) {
	deja, err := dejaImporte(ctx, f, i.stream, i.b)
	i.b.DejaImporte = deja
	if deja || err != nil {
		return false, err
	}
	joue := streamname.TournoiStream
	if i.b.Genre == GenreClassique {
		joue = streamname.ClassiqueStream
	}
	if live, err := joue(i.b.Tournoi); err == nil {
		if existe, err := f.Exists(ctx, live); err != nil || existe {
			if err == nil {
				err = &erreur.Erreur{Code: CodeAlreadyExists, Message: fmt.Sprintf("le tournoi %s %s est joué sur ce serveur : ses résultats y sont déjà", i.b.Genre, i.b.Tournoi)}
			}
			return false, err
		}
	}
	return true, nil
}

// dejaImporte reports whether the stream holds this very file; another
// file there is ALREADY_EXISTS.
func dejaImporte(ctx context.Context, f repository.Streams, stream string, b Bilan) (bool, error) {
	ouvert, _, ok, err := charger(ctx, f.Store, f.Registry, stream)
	if err != nil || !ok {
		return false, err
	}
	if ouvert.Empreinte != b.Empreinte {
		return false, &erreur.Erreur{Code: CodeAlreadyExists, Message: fmt.Sprintf("le tournoi %s %s a déjà été importé, depuis le fichier %s (empreinte %.12s) : un autre fichier ne le remplace pas",
			b.Genre, b.Tournoi, ouvert.Fichier, ouvert.Empreinte)}
	}
	return true, nil
}

// Charger returns an imported tournament's document as its events hold
// it, and false when the tournament was not imported.
func Charger(ctx context.Context, r eventstore.Reader, reg *eventstore.Registry, genre Genre, tournoi string) (Document, bool, error) {
	stream, err := streamname.ArchiveStream(string(genre), tournoi)
	if err != nil {
		return Document{}, false, nil
	}
	_, d, ok, err := charger(ctx, r, reg, stream)
	return d, ok, err
}

func charger(ctx context.Context, r eventstore.Reader, reg *eventstore.Registry, stream string) (ImportOuvert, Document, bool, error) {
	recorded, err := eventstore.ReadWholeStream(ctx, r, stream)
	if err != nil || len(recorded) == 0 {
		return ImportOuvert{}, Document{}, false, err
	}
	events := make([]any, len(recorded))
	for i, e := range recorded {
		if events[i], err = reg.Decode(e); err != nil {
			return ImportOuvert{}, Document{}, false, err
		}
	}
	ouvert, ok := events[0].(ImportOuvert)
	if !ok {
		return ouvert, Document{}, false, fmt.Errorf("archive: %s does not start with %s", stream, TypeImportOuvert)
	}
	d := Document{Tournoi: ouvert.Tournoi, Nom: ouvert.Nom, Genre: ouvert.Genre, Date: ouvert.Date, Exempt: ouvert.Exempt}
	if d.Genre == GenreClassique && d.Exempt == nil {
		d.Exempt = exemptParDefaut()
	}
	d.Duplicate, d.Classique = Lignes(events[1:])
	return ouvert, d, true, nil
}

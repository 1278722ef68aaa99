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
	d, numeros, err := Lire(contenu)
	if err != nil {
		return Bilan{}, err
	}
	somme := sha256.Sum256(contenu)
	b := Bilan{Tournoi: d.Tournoi, Genre: d.Genre, Lignes: len(numeros), Empreinte: hex.EncodeToString(somme[:])}
	stream, err := streamname.ArchiveStream(string(d.Genre), d.Tournoi)
	if err != nil {
		return b, err
	}
	if deja, err := dejaImporte(ctx, f, stream, b); deja || err != nil {
		b.DejaImporte = deja
		return b, err
	}
	joue := streamname.TournoiStream
	if d.Genre == GenreClassique {
		joue = streamname.ClassiqueStream
	}
	if live, err := joue(d.Tournoi); err == nil {
		if existe, err := f.Exists(ctx, live); err != nil || existe {
			if err == nil {
				err = &erreur.Erreur{Code: CodeAlreadyExists, Message: fmt.Sprintf("le tournoi %s %s est joué sur ce serveur : ses résultats y sont déjà", d.Genre, d.Tournoi)}
			}
			return b, err
		}
	}
	evenements := []any{ImportOuvert{Tournoi: d.Tournoi, Nom: d.Nom, Genre: d.Genre, Date: d.Date, Fichier: fichier,
		Empreinte: b.Empreinte, Lignes: b.Lignes, Exempt: d.Exempt}}
	if d.Genre == GenreClassique {
		evenements = append(evenements, matchsClassiques(d.Classique, numeros)...)
	} else {
		evenements = append(evenements, partiesDuplicates(d.Duplicate, numeros)...)
	}
	err = f.Save(ctx, stream, 0, evenements, md)
	if errors.Is(err, eventstore.ErrConflict) {
		// Another import of the tournament landed first: the same file is
		// done, another one is refused.
		b.DejaImporte, err = dejaImporte(ctx, f, stream, b)
	}
	return b, err
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

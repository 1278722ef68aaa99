// Package centres carries a centre's results of an event played on a
// pre-drawn game (guide §2.17) from the centre's server to the
// federation's: Exporter writes the bundle of the centre's game — its
// events and its tournament's, as JSON lines, and a manifest with their
// hash — and Lire checks a bundle's integrity and folds its events into the
// centre's results, with the same standings as the centre's own hall.
package centres

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"

	"arbitre/domain/duplicate"
	"arbitre/domain/eventstore"
	"arbitre/domain/federation"
	"arbitre/projections/standings"
)

// Format names the bundle's layout.
const Format = "arbitre-centre/1"

// The bundle's two files.
const (
	FichierEvenements = "evenements.jsonl"
	FichierManifeste  = "manifeste.json"
)

// Manifeste describes a bundle: which event, centre and game, what the
// centre's director declared (coups annulled by an incident, a game
// annulled, §2.17.2) and the events' count and hash.
type Manifeste struct {
	Format        string `json:"format"`
	Epreuve       string `json:"epreuve"`
	Centre        string `json:"centre"`
	Partie        string `json:"partie"`
	Tournoi       string `json:"tournoi"`
	CoupsAnnules  []int  `json:"coupsAnnules,omitempty"`
	PartieAnnulee bool   `json:"partieAnnulee,omitempty"`
	Evenements    int    `json:"evenements"`
	SHA256        string `json:"sha256"`
}

// Exporter writes to w the bundle of game m.Partie, read from r: the
// game's events (its stream and its tables', eventstore.TableStream) and its
// tournament's, in the order of the global log.
func Exporter(ctx context.Context, r eventstore.Reader, registre *eventstore.Registry, m Manifeste, w io.Writer) error {
	flux, err := eventstore.PartieStream(m.Partie)
	if err != nil {
		return err
	}
	partie, err := eventstore.ReadFamily(ctx, r, flux) // the game's stream and its tables'
	if err != nil {
		return err
	}
	if len(partie) == 0 {
		return &federation.Erreur{Code: federation.CodeNotFound, Message: fmt.Sprintf("la partie %s n'existe pas", m.Partie)}
	}
	creee, err := registre.Decode(partie[0])
	if err != nil {
		return err
	}
	c, ok := creee.(duplicate.PartieCreee)
	if !ok {
		return fmt.Errorf("partie %s : premier événement %s", m.Partie, partie[0].Type)
	}
	m.Tournoi = c.Tournoi
	fluxTournoi, err := eventstore.TournoiStream(c.Tournoi)
	if err != nil {
		return err
	}
	tournoi, err := eventstore.ReadWholeStream(ctx, r, fluxTournoi)
	if err != nil {
		return err
	}
	var lignes bytes.Buffer
	for _, e := range fusionner(tournoi, partie) {
		b, err := json.Marshal(e)
		if err != nil {
			return err
		}
		lignes.Write(append(b, '\n'))
		m.Evenements++
	}
	somme := sha256.Sum256(lignes.Bytes())
	m.Format, m.SHA256 = Format, hex.EncodeToString(somme[:])
	manifeste, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	z := zip.NewWriter(w)
	for _, f := range []struct {
		nom     string
		contenu []byte
	}{{FichierManifeste, manifeste}, {FichierEvenements, lignes.Bytes()}} {
		fw, err := z.Create(f.nom)
		if err != nil {
			return err
		}
		if _, err := fw.Write(f.contenu); err != nil {
			return err
		}
	}
	return z.Close()
}

// fusionner merges two streams in the order of the global log.
func fusionner(a, b []eventstore.Event) []eventstore.Event {
	out := make([]eventstore.Event, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if a[0].Position < b[0].Position {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	return append(append(out, a...), b...)
}

// Paquet is a bundle read and checked.
type Paquet struct {
	Manifeste Manifeste
	// Empreinte fingerprints the bundle (the hash of its manifest, which
	// holds the events' hash): the same bundle imported twice has the same.
	Empreinte string
	Resultats federation.ResultatsCentre
}

// Lire checks a bundle — its two files, the events' count and hash, each
// event decodable, of the game's and its tournament's streams only, their
// revisions 0, 1, 2... — and folds its events into the centre's results:
// each player's score in the centre's standings and his points per coup.
// A bundle that fails is refused whole with PAQUET_CORROMPU.
func Lire(data []byte, registre *eventstore.Registry) (Paquet, error) {
	var p Paquet
	fichiers, err := ouvrir(data)
	if err != nil {
		return p, corrompu(err, "archive illisible")
	}
	dec := json.NewDecoder(bytes.NewReader(fichiers[FichierManifeste]))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p.Manifeste); err != nil {
		return p, corrompu(err, "manifeste illisible")
	}
	m := p.Manifeste
	if m.Format != Format {
		return p, corrompu(nil, "format %q inconnu (%s attendu)", m.Format, Format)
	}
	lignes := fichiers[FichierEvenements]
	if somme := sha256.Sum256(lignes); hex.EncodeToString(somme[:]) != m.SHA256 {
		return p, corrompu(nil, "l'empreinte des événements ne correspond pas au manifeste : paquet modifié ou tronqué")
	}
	canon, err := json.Marshal(m)
	if err != nil {
		return p, err
	}
	somme := sha256.Sum256(canon)
	p.Empreinte = hex.EncodeToString(somme[:])
	fluxPartie, err := eventstore.PartieStream(m.Partie)
	if err != nil {
		return p, corrompu(err, "partie %q invalide", m.Partie)
	}
	fluxTournoi, err := eventstore.TournoiStream(m.Tournoi)
	if err != nil {
		return p, corrompu(err, "tournoi %q invalide", m.Tournoi)
	}
	c := standings.New()
	revisions := map[string]uint64{}
	sc := bufio.NewScanner(bytes.NewReader(lignes))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	n := 0
	for sc.Scan() {
		n++
		var e eventstore.Event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return p, corrompu(err, "événement %d illisible", n)
		}
		principal, _ := eventstore.SousFlux(e.Stream)
		if e.Stream != fluxPartie && principal != fluxPartie && e.Stream != fluxTournoi {
			return p, corrompu(nil, "événement %d du flux %s, étranger à la partie %s", n, e.Stream, m.Partie)
		}
		if e.Revision != revisions[e.Stream] {
			return p, corrompu(nil, "événement %d : révision %d du flux %s, %d attendue", n, e.Revision, e.Stream, revisions[e.Stream])
		}
		revisions[e.Stream]++
		if err := standings.AppliquerEvenement(c, registre, e); err != nil {
			return p, corrompu(err, "événement %d (%s) refusé", n, e.Type)
		}
	}
	if err := sc.Err(); err != nil || n != m.Evenements {
		return p, corrompu(err, "%d événements lus, %d annoncés", n, m.Evenements)
	}
	lignesPartie, err := c.Partie(m.Partie)
	if err != nil {
		return p, corrompu(err, "la partie %s manque au paquet", m.Partie)
	}
	points, err := c.ParCoup(m.Partie)
	if err != nil {
		return p, err
	}
	p.Resultats = federation.ResultatsCentre{Centre: m.Centre, Partie: m.Partie, CoupsAnnules: m.CoupsAnnules, PartieAnnulee: m.PartieAnnulee}
	for _, l := range lignesPartie {
		p.Resultats.Joueurs = append(p.Resultats.Joueurs, federation.JoueurCentre{Licence: l.Licence, Nom: l.Nom, Serie: l.Serie,
			Club: l.Club, Score: l.Score, Points: points[l.Licence]})
	}
	return p, nil
}

// ouvrir reads the bundle's two files, and nothing else.
func ouvrir(data []byte) (map[string][]byte, error) {
	z, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	for _, f := range z.File {
		if f.Name != FichierManifeste && f.Name != FichierEvenements {
			return nil, fmt.Errorf("fichier %q inattendu", f.Name)
		}
		rc, err := f.Open()
		if err != nil {
			return nil, err
		}
		b, err := io.ReadAll(io.LimitReader(rc, 1<<28))
		rc.Close()
		if err != nil {
			return nil, err
		}
		out[f.Name] = b
	}
	if len(out) != 2 {
		return nil, fmt.Errorf("%s et %s attendus", FichierManifeste, FichierEvenements)
	}
	return out, nil
}

func corrompu(cause error, format string, args ...any) error {
	return &federation.Erreur{Code: federation.CodePaquetCorrompu, Message: "paquet du centre : " + fmt.Sprintf(format, args...), Err: cause}
}

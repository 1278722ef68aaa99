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
	"slices"

	"arbitre/domain/duplicate"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/streamname"
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
	flux, err := streamname.PartieStream(m.Partie)
	if err != nil {
		return err
	}
	partie, err := eventstore.ReadFamily(ctx, r, flux) // the game's stream and its tables'
	if err != nil {
		return err
	}
	if len(partie) == 0 {
		return &erreur.Erreur{Code: federation.CodeNotFound, Message: fmt.Sprintf("la partie %s n'existe pas", m.Partie)}
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
	fluxTournoi, err := streamname.TournoiStream(c.Tournoi)
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

// The bounds of a bundle (docs/securite.md, « Paquets, listes de mots et
// réponses du principal »): its events are a game's and its tournament's,
// a few megabytes for the largest hall. A bundle past them is refused from
// its zip headers, before anything is inflated, and again from the bytes
// read, whatever its headers say.
const (
	// TailleManifesteMax bounds manifeste.json, inflated.
	TailleManifesteMax = 64 << 10
	// TailleEvenementsMax bounds evenements.jsonl, inflated.
	TailleEvenementsMax = 16 << 20
	// CompressionMax bounds how many bytes a compressed byte inflates to
	// (events compress about tenfold); a file smaller than
	// TailleManifesteMax is not held to it.
	CompressionMax = 100
	// TaillePaquetMax bounds a bundle's file: its two files stored
	// uncompressed, with room for the zip's headers.
	TaillePaquetMax = TailleEvenementsMax + TailleManifesteMax + 4<<10
)

// Paquet is a bundle read and checked.
type Paquet struct {
	Manifeste Manifeste
	// Empreinte fingerprints the bundle (the hash of its manifest, which
	// holds the events' hash): the same bundle imported twice has the same.
	Empreinte string
	Resultats federation.ResultatsCentre
	// Feuille is the game as the bundle plays it: each coup's tirage and
	// top, what a twinning's principal checks against its own game.
	Feuille federation.Feuille
}

// Archive is a bundle opened: its zip's two files checked against the
// bounds and its manifest read, its events not yet inflated. Whoever
// receives a bundle checks what the manifest claims (the token's centre
// and event, the twinning's sites) before reading the events (Lire).
type Archive struct {
	Manifeste Manifeste
	// Empreinte is the bundle's fingerprint (Paquet.Empreinte).
	Empreinte  string
	evenements *zip.File
}

// Ouvrir opens a bundle: a zip of exactly manifeste.json and
// evenements.jsonl, each within its bound and CompressionMax, the
// manifest read. A bundle that fails is refused whole with
// CORRUPT_BUNDLE.
func Ouvrir(ctx context.Context, data []byte) (*Archive, error) {
	if len(data) > TaillePaquetMax {
		return nil, corrompu(nil, "un paquet fait %d octets au plus", TaillePaquetMax)
	}
	z, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, corrompu(err, "archive illisible")
	}
	a := &Archive{}
	var manifeste *zip.File
	for _, f := range z.File {
		switch {
		case f.Name == FichierManifeste && manifeste == nil:
			manifeste = f
		case f.Name == FichierEvenements && a.evenements == nil:
			a.evenements = f
		default:
			return nil, corrompu(nil, "fichier %q inattendu : %s et %s seulement, une fois chacun", f.Name, FichierManifeste, FichierEvenements)
		}
		if err := tailleAnnoncee(f); err != nil {
			return nil, err
		}
	}
	if manifeste == nil || a.evenements == nil {
		return nil, corrompu(nil, "%s et %s attendus", FichierManifeste, FichierEvenements)
	}
	contenu, err := extraire(ctx, manifeste)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(contenu))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a.Manifeste); err != nil {
		return nil, corrompu(err, "manifeste illisible")
	}
	if a.Manifeste.Format != Format {
		return nil, corrompu(nil, "format %q inconnu (%s attendu)", a.Manifeste.Format, Format)
	}
	canon, err := json.Marshal(a.Manifeste)
	if err != nil {
		return nil, err
	}
	somme := sha256.Sum256(canon)
	a.Empreinte = hex.EncodeToString(somme[:])
	return a, nil
}

// tailleMax is the bound of each file of a bundle.
var tailleMax = map[string]uint64{FichierManifeste: TailleManifesteMax, FichierEvenements: TailleEvenementsMax}

// tailleAnnoncee checks a file's sizes as its zip headers announce them.
func tailleAnnoncee(f *zip.File) error {
	if f.UncompressedSize64 > tailleMax[f.Name] {
		return corrompu(nil, "%s annonce %d octets, %d au plus", f.Name, f.UncompressedSize64, tailleMax[f.Name])
	}
	if f.UncompressedSize64 > TailleManifesteMax && f.UncompressedSize64/CompressionMax > f.CompressedSize64 {
		return corrompu(nil, "%s : %d octets compressés en %d, %d pour 1 au plus", f.Name, f.UncompressedSize64, f.CompressedSize64, CompressionMax)
	}
	return nil
}

// extraire inflates a file checked by tailleAnnoncee: exactly the size its
// headers announce, never a byte more, stopped when ctx ends.
func extraire(ctx context.Context, f *zip.File) ([]byte, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, corrompu(err, "%s illisible", f.Name)
	}
	defer rc.Close()
	r := lecteur{ctx: ctx, r: rc}
	b := make([]byte, f.UncompressedSize64)
	if _, err := io.ReadFull(r, b); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, corrompu(err, "%s : moins d'octets que les %d annoncés", f.Name, f.UncompressedSize64)
	}
	// The end, where zip checks the CRC, and not one byte more.
	if n, err := r.Read(make([]byte, 1)); n > 0 || err != io.EOF {
		return nil, corrompu(err, "%s : plus d'octets que les %d annoncés", f.Name, f.UncompressedSize64)
	}
	return b, nil
}

// lecteur reads r until ctx ends.
type lecteur struct {
	ctx context.Context
	r   io.Reader
}

func (l lecteur) Read(b []byte) (int, error) {
	if err := l.ctx.Err(); err != nil {
		return 0, err
	}
	return l.r.Read(b)
}

// Lire checks a bundle — its two files, the events' count and hash, each
// event decodable, of the game's and its tournament's streams only, their
// revisions 0, 1, 2... — and folds its events into the centre's results:
// each player's score in the centre's standings and his points per coup.
// A bundle that fails is refused whole with CORRUPT_BUNDLE; ctx's end
// stops the reading.
func Lire(ctx context.Context, data []byte, registre *eventstore.Registry) (Paquet, error) {
	a, err := Ouvrir(ctx, data)
	if err != nil {
		return Paquet{}, err
	}
	return a.Lire(ctx, registre)
}

// Lire reads and folds the events of an opened bundle (the package's Lire).
func (a *Archive) Lire(ctx context.Context, registre *eventstore.Registry) (Paquet, error) {
	p := Paquet{Manifeste: a.Manifeste, Empreinte: a.Empreinte}
	m := p.Manifeste
	lignes, err := extraire(ctx, a.evenements)
	if err != nil {
		return p, err
	}
	if somme := sha256.Sum256(lignes); hex.EncodeToString(somme[:]) != m.SHA256 {
		return p, corrompu(nil, "l'empreinte des événements ne correspond pas au manifeste : paquet modifié ou tronqué")
	}
	fluxPartie, err := streamname.PartieStream(m.Partie)
	if err != nil {
		return p, corrompu(err, "partie %q invalide", m.Partie)
	}
	fluxTournoi, err := streamname.TournoiStream(m.Tournoi)
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
		if err := ctx.Err(); err != nil {
			return p, err
		}
		var e eventstore.Event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return p, corrompu(err, "événement %d illisible", n)
		}
		principal, _ := streamname.MainStream(e.Stream)
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
		if e.Stream == fluxPartie {
			if err := noter(&p.Feuille, registre, e); err != nil {
				return p, corrompu(err, "événement %d (%s) illisible", n, e.Type)
			}
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

// noter folds one event of a game's stream into its sheet: its
// configuration's solo threshold, each coup's tirage and top; a coup
// annulled goes, its tirage drawn again (§3.6).
func noter(f *federation.Feuille, registre *eventstore.Registry, e eventstore.Event) error {
	switch e.Type {
	case duplicate.TypePartieCreee, duplicate.TypeTirageEffectue, duplicate.TypeTopRetenu, duplicate.TypeCoupAnnule:
	default:
		return nil
	}
	v, err := registre.Decode(e)
	if err != nil {
		return err
	}
	coup := func(n int) *federation.CoupFeuille {
		for i := range f.Coups {
			if f.Coups[i].Coup == n {
				return &f.Coups[i]
			}
		}
		f.Coups = append(f.Coups, federation.CoupFeuille{Coup: n})
		return &f.Coups[len(f.Coups)-1]
	}
	switch e := v.(type) {
	case duplicate.PartieCreee:
		f.SeuilSolo = e.Config.SeuilSolo
	case duplicate.TirageEffectue:
		*coup(e.Coup) = federation.CoupFeuille{Coup: e.Coup, Tirage: federation.TrierTirage(e.Reliquat + e.Tirees)}
	case duplicate.TopRetenu:
		c := coup(e.Coup)
		c.Retenu, c.Ref, c.Mot, c.Top = true, e.Ref, e.Mot, e.Score
	case duplicate.CoupAnnule:
		f.Coups = slices.DeleteFunc(f.Coups, func(c federation.CoupFeuille) bool { return c.Coup == e.Coup })
	}
	return nil
}

func corrompu(cause error, format string, args ...any) error {
	return &erreur.Erreur{Code: federation.CodePaquetCorrompu, Message: "paquet du centre : " + fmt.Sprintf(format, args...), Err: cause}
}

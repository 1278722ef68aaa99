// Package export builds the document of one tournament's results
// (archive.Document) from the read models, and writes it as CSV, JSON or a
// zip holding both and every classique match's GCG (docs/archive.md). A
// tournament imported into the archive is exported as its import's events
// hold it, so export, import and export again give the same file.
package export

import (
	"archive/zip"
	"context"
	"fmt"
	"io"
	"sort"

	"arbitre/domain/archive"
	"arbitre/domain/classique/gcg"
	"arbitre/domain/classique/matchclassique"
	"arbitre/domain/classique/tournoiclassique"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/streamname"
	"arbitre/projections/historique"
	"arbitre/projections/standings"
)

// Lectures are the read models a tournament's results are read from.
type Lectures struct {
	Historique  *historique.Lecteur
	Classements *standings.Lecteur
}

// Construire returns tournament id's results: duplicate standings per game
// and cumulated (projections/standings), classique meetings
// (projections/historique) and cotes (projections/classique); an imported
// tournament from its import's events in journal. An unknown tournament is
// NOT_FOUND.
func Construire(ctx context.Context, l Lectures, journal eventstore.Reader, reg *eventstore.Registry, id string) (archive.Document, error) {
	t, ok, err := l.Historique.TournoiDe(ctx, id)
	if err != nil {
		return archive.Document{}, err
	}
	if !ok {
		return archive.Document{}, &erreur.Erreur{Code: archive.CodeNotFound, Message: fmt.Sprintf("le tournoi %s est inconnu de l'archive", id)}
	}
	genre := archive.Genre(t.Kind)
	if d, importe, err := archive.Charger(ctx, journal, reg, genre, t.ID); importe || err != nil {
		return d, err
	}
	d := archive.Document{Tournoi: t.ID, Nom: t.Nom, Genre: genre, Date: t.OuvertLe.Format(archive.FormatDate)}
	if genre == archive.GenreClassique {
		var e tournoiclassique.Exempt
		if e, err = exemptDuTournoi(ctx, journal, reg, t.ID); err != nil {
			return d, err
		}
		d.Exempt = &e
		d.Classique, err = classique(ctx, l.Historique, t.ID, e)
	} else {
		d.Duplicate, err = duplicate(ctx, l, t.ID)
	}
	return d, err
}

// duplicate lists, player by player in the order of the cumulated
// standings, his line in each game in the order the games were created.
func duplicate(ctx context.Context, l Lectures, tournoi string) ([]archive.LigneDuplicate, error) {
	var parties []historique.Partie
	for page := (historique.Page{First: historique.MaxPage}); ; {
		ps, plus, err := l.Historique.Parties(ctx, tournoi, page)
		if err != nil {
			return nil, err
		}
		for _, p := range ps {
			if p.Kind == historique.KindDuplicate {
				parties = append(parties, p)
			}
		}
		if !plus {
			break
		}
		page.After = ps[len(ps)-1].Position
	}
	c, err := l.Classements.Charger(ctx, tournoi)
	if err != nil {
		return nil, err
	}
	cumul, err := c.Cumul()
	if err != nil {
		return nil, err
	}
	parPartie := make([]map[string]standings.Ligne, len(parties))
	for i, p := range parties {
		lignes, err := c.Partie(p.ID)
		if err != nil {
			return nil, err
		}
		parPartie[i] = map[string]standings.Ligne{}
		for _, l := range lignes {
			parPartie[i][l.Licence] = l
		}
	}
	var out []archive.LigneDuplicate
	for _, g := range cumul {
		for i, p := range parties {
			l, ok := parPartie[i][g.Licence]
			if !ok {
				continue
			}
			out = append(out, archive.LigneDuplicate{Partie: p.ID, Numero: p.Numero, Licence: g.Licence, Nom: g.Nom, Club: g.Club,
				Serie: g.Serie, Score: l.Score, Top: l.Top, Rang: l.Rang, Cumul: g.Score, TopCumul: g.Top,
				Pourcentage: g.Pourcentage, RangGeneral: g.Rang})
		}
	}
	return out, nil
}

// exemptDuTournoi is what a bye counts in the classique tournament played
// here: its configuration, as its opening recorded it (tournoiclassique.TournoiOuvert).
func exemptDuTournoi(ctx context.Context, journal eventstore.Reader, reg *eventstore.Registry, tournoi string) (tournoiclassique.Exempt, error) {
	stream, err := streamname.ClassiqueStream(tournoi)
	if err != nil {
		return tournoiclassique.Exempt{}, err
	}
	premiers, err := journal.ReadStream(ctx, stream, 0, 1)
	if err != nil || len(premiers) == 0 {
		return tournoiclassique.ConfigParDefaut().Exempt, err
	}
	ev, err := reg.Decode(premiers[0])
	if err != nil {
		return tournoiclassique.Exempt{}, err
	}
	ouvert, ok := ev.(tournoiclassique.TournoiOuvert)
	if !ok {
		return tournoiclassique.Exempt{}, fmt.Errorf("export: %s does not start with the tournament's opening", stream)
	}
	return ouvert.Configuration().Exempt, nil
}

// classique lists each round: each match as two lines, one per player,
// then the exempt player's line, counting exempt; with each player's cote
// before and after the tournament once it is closed.
func classique(ctx context.Context, h *historique.Lecteur, tournoi string, exempt tournoiclassique.Exempt) ([]archive.LigneClassique, error) {
	rs, err := h.RencontresDuTournoi(ctx, tournoi)
	if err != nil {
		return nil, err
	}
	exempts, err := h.Exempts(ctx, tournoi)
	if err != nil {
		return nil, err
	}
	cotes, err := h.CotesDuTournoi(ctx, tournoi)
	if err != nil {
		return nil, err
	}
	joueurs := map[string]historique.Joueur{}
	joueur := func(id string) (historique.Joueur, error) {
		j, ok := joueurs[id]
		if !ok {
			if j, _, err = h.JoueurDe(ctx, id); err != nil {
				return j, err
			}
			joueurs[id] = j
		}
		return j, nil
	}
	parRonde := map[int][]historique.Rencontre{}
	var rondes []int
	for _, r := range rs {
		parRonde[r.Ronde] = append(parRonde[r.Ronde], r)
	}
	for r := range exempts {
		if _, ok := parRonde[r]; !ok {
			parRonde[r] = nil
		}
	}
	for r := range parRonde {
		rondes = append(rondes, r)
	}
	sort.Ints(rondes)
	var out []archive.LigneClassique
	for _, numero := range rondes {
		for _, r := range parRonde[numero] {
			for moi, lui := range []int{1, 0} {
				j, err := joueur(r.Joueurs[moi])
				if err != nil {
					return nil, err
				}
				c := cotes[j.ID]
				out = append(out, archive.LigneClassique{Ronde: r.Ronde, Match: r.Match, Licence: j.ID, Nom: j.Nom, Club: j.Club,
					Adversaire: r.Joueurs[lui], Score: r.Scores[moi], ScoreAdversaire: r.Scores[lui], PointsDeMatch: r.PointsDeMatch[moi],
					CoteAvant: c[0], CoteApres: c[1]})
			}
		}
		if e, ok := exempts[numero]; ok {
			j, err := joueur(e)
			if err != nil {
				return nil, err
			}
			out = append(out, archive.Exempte(numero, j.ID, j.Nom, j.Club, cotes[j.ID], exempt))
		}
	}
	return out, nil
}

// Fichier is a file of the zip.
type Fichier struct {
	Nom   string
	Texte string
}

// Tournois reads classique tournaments, Matchs their matches
// (domain/classique/adapters).
type (
	Tournois interface {
		Charger(ctx context.Context, id string) (*tournoiclassique.TournoiClassique, error)
	}
	Matchs interface {
		Lire(ctx context.Context, id string) (*matchclassique.Match, error)
	}
)

// GCG returns every ended match of classique tournament id's published
// rounds as a GCG file named <match>.gcg (a table whose match is not
// opened yet has none, nor a match without a move: a forfeit, an abandon
// before the first word). A match in play is left out: its racks are
// private until the end (matchclassique.Match.Finie). Writing what was recorded needs no lexicon: a match
// created under a lexicon the server does not hold is exported too.
func GCG(ctx context.Context, tournois Tournois, matchs Matchs, id string) ([]Fichier, error) {
	t, err := tournois.Charger(ctx, id)
	if err != nil {
		return nil, err
	}
	var out []Fichier
	for _, r := range t.Publiees() {
		for _, tb := range r.Tables {
			p, err := matchs.Lire(ctx, tb.Match)
			if erreur.CodeOf(err) == erreur.CodeNotFound {
				continue // a table whose match is not opened yet: no game to write
			}
			if err != nil {
				return nil, err
			}
			if !p.Finie() || !gcg.Jouee(p) {
				continue
			}
			text, err := gcg.Export(p)
			if err != nil {
				return nil, err
			}
			out = append(out, Fichier{Nom: tb.Match + ".gcg", Texte: text})
		}
	}
	return out, nil
}

// Zip writes the zip of the whole tournament d (EcrireZip): with the GCG
// of every match when it is a classique tournament played here (an
// imported one has its results only).
func Zip(ctx context.Context, w io.Writer, journal eventstore.Reader, reg *eventstore.Registry, tournois Tournois, matchs Matchs, d archive.Document) error {
	var parties []Fichier
	if d.Genre == archive.GenreClassique {
		_, importe, err := archive.Charger(ctx, journal, reg, d.Genre, d.Tournoi)
		if err == nil && !importe {
			parties, err = GCG(ctx, tournois, matchs, d.Tournoi)
		}
		if err != nil {
			return err
		}
	}
	return EcrireZip(w, d, parties)
}

// EcrireZip writes the zip of a whole tournament: <tournoi>.csv,
// <tournoi>.json and each classique match's GCG under parties/, by name.
func EcrireZip(w io.Writer, d archive.Document, gcg []Fichier) error {
	z := zip.NewWriter(w)
	for _, f := range []struct {
		nom    string
		ecrire func(io.Writer, archive.Document) error
	}{{d.Tournoi + ".csv", archive.EcrireCSV}, {d.Tournoi + ".json", archive.EcrireJSON}} {
		fw, err := z.Create(f.nom)
		if err != nil {
			return err
		}
		if err := f.ecrire(fw, d); err != nil {
			return err
		}
	}
	sort.Slice(gcg, func(i, j int) bool { return gcg[i].Nom < gcg[j].Nom })
	for _, f := range gcg {
		fw, err := z.Create("parties/" + f.Nom)
		if err != nil {
			return err
		}
		if _, err := io.WriteString(fw, f.Texte); err != nil {
			return err
		}
	}
	return z.Close()
}

package graphql

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"arbitre/domain/acces"
	"arbitre/domain/archive"
	"arbitre/domain/erreur"
	"arbitre/graphql/model"
	"arbitre/projections/export"
	"arbitre/projections/historique"
	"arbitre/projections/standings"
)

// curseur encodes a global position as an opaque cursor.
func curseur(pos uint64) string {
	return base64.RawURLEncoding.EncodeToString([]byte(strconv.FormatUint(pos, 10)))
}

// pageDe reads first/after; a cursor that was not given by the server is an
// INVALID_INPUT.
func pageDe(first *int, after *string) (historique.Page, error) {
	var p historique.Page
	if first != nil {
		if *first < 1 || *first > historique.MaxPage {
			return p, refusal("first", "entre 1 et 100", nil)
		}
		p.First = *first
	}
	if after != nil && *after != "" {
		raw, err := base64.RawURLEncoding.DecodeString(*after)
		if err == nil {
			p.After, err = strconv.ParseUint(string(raw), 10, 64)
		}
		if err != nil {
			return p, &erreur.Erreur{Code: CodeInvalidInput, Message: "curseur invalide", Err: err}
		}
	}
	return p, nil
}

// Bounds of the annual rankings' inputs: a club's name is at most as long
// as an imported file's (archive.MaxTexte), a year is a year of the
// federation's history.
const (
	maxClub  = archive.MaxTexte
	anneeMin = 1900
	anneeMax = 2999
)

// verifierClub refuses an empty club's name, or one longer than an
// imported file's.
func verifierClub(club string) error {
	if strings.TrimSpace(club) == "" || utf8.RuneCountInString(club) > maxClub {
		return refusal("club", fmt.Sprintf("un nom de club de 1 à %d caractères", maxClub), nil)
	}
	return nil
}

// classementAnnuel is a page of a year's national ranking, or of a club's
// lines of it.
func (r *Resolver) classementAnnuel(ctx context.Context, annee int, kind historique.Kind, club string, first *int, after *string) (*model.BilanAnnuelConnection, error) {
	if annee < anneeMin || annee > anneeMax {
		return nil, refusal("annee", fmt.Sprintf("une année de %d à %d", anneeMin, anneeMax), nil)
	}
	page, err := pageDe(first, after)
	if err != nil {
		return nil, err
	}
	if err := r.archiveAJour(ctx); err != nil {
		return nil, err
	}
	bs, more, err := r.Archives.ClassementAnnuel(ctx, annee, kind, club, page)
	if err != nil {
		return nil, err
	}
	conn := &model.BilanAnnuelConnection{Edges: []model.BilanAnnuelEdge{}}
	for _, b := range bs {
		node := &model.BilanAnnuel{Rang: b.Rang, Joueur: b.Joueur, Nom: b.Nom, Club: b.Club, Parties: b.Parties, Points: b.Points,
			Maximum: b.Maximum, Pourcentage: math.Round(b.Pourcentage()*100) / 100}
		if b.Cote != 0 {
			node.Cote = &b.Cote
		}
		conn.Edges = append(conn.Edges, model.BilanAnnuelEdge{Cursor: curseur(b.Numero), Node: node})
	}
	conn.PageInfo = pageInfo(len(bs), more, func(i int) uint64 { return bs[i].Numero })
	return conn, nil
}

// pageInfo describes a page of n rows whose positions pos gives.
func pageInfo(n int, more bool, pos func(i int) uint64) *model.PageInfo {
	info := &model.PageInfo{HasNextPage: more}
	if n > 0 {
		end := curseur(pos(n - 1))
		info.EndCursor = &end
	}
	return info
}

// participation is a player's result in one game: his line of the duplicate
// standings (or of the imported file), or his side of the classique meeting,
// as the archive's page read them (historique.Participations).
func (r *Resolver) participation(ctx context.Context, joueur string, p historique.Participation) (*model.Participation, error) {
	node := &model.Participation{Partie: p.Partie, Tournoi: p.Tournoi, Type: p.Kind}
	if p.Kind == historique.KindClassique {
		rc := p.Rencontre
		if rc == nil {
			return node, nil
		}
		moi, lui := 0, 1
		if rc.Joueurs[1] == joueur {
			moi, lui = 1, 0
		}
		node.Score, node.ScoreAdversaire, node.PointsDeMatch = &rc.Scores[moi], &rc.Scores[lui], &rc.PointsDeMatch[moi]
		node.Adversaire = &rc.Joueurs[lui]
		return node, nil
	}
	if res := p.Resultat; res != nil {
		node.Score, node.Top, node.Rang = &res.Score, &res.Top, &res.Rang
		return node, nil
	}
	lignes, err := r.Classements.Partie(ctx, p.Partie, standings.Public)
	if err != nil {
		return nil, err
	}
	for _, l := range lignes {
		if l.Licence == joueur {
			node.Score, node.Top, node.Rang = &l.Score, &l.Top, &l.Rang
		}
	}
	return node, nil
}

// faceAFace sums the classique meetings of joueur.
func faceAFace(joueur string, rs []historique.Rencontre) *model.FaceAFace {
	f := &model.FaceAFace{Rencontres: []model.Rencontre{}}
	for _, rc := range rs {
		moi, lui := 0, 1
		if rc.Joueurs[1] == joueur {
			moi, lui = 1, 0
		}
		f.Parties++
		f.PointsPour += rc.Scores[moi]
		f.PointsContre += rc.Scores[lui]
		switch {
		case rc.PointsDeMatch[moi] > rc.PointsDeMatch[lui]:
			f.Victoires++
		case rc.PointsDeMatch[moi] == rc.PointsDeMatch[lui]:
			f.Nuls++
		default:
			f.Defaites++
		}
		f.Rencontres = append(f.Rencontres, model.Rencontre{Tournoi: rc.Tournoi, Match: rc.Match, Ronde: rc.Ronde,
			Joueurs: rc.Joueurs[:], Scores: rc.Scores[:], PointsDeMatch: rc.PointsDeMatch[:], Le: rc.Le})
	}
	return f
}

// fichierExport writes a tournament's results document in the format
// asked: a zip (export.Zip, with every classique match's GCG) in base64.
func (r *Resolver) fichierExport(ctx context.Context, d archive.Document, format model.FormatExport) (*model.ExportArchive, error) {
	var buf bytes.Buffer
	f := &model.ExportArchive{NomFichier: d.Tournoi + ".csv", TypeMime: "text/csv; charset=utf-8"}
	var err error
	switch format {
	case model.FormatExportJSON:
		f.NomFichier, f.TypeMime = d.Tournoi+".json", "application/json"
		err = archive.EcrireJSON(&buf, d)
	case model.FormatExportZip:
		f.NomFichier, f.TypeMime = d.Tournoi+".zip", "application/zip"
		err = export.Zip(ctx, &buf, r.Journal, r.Registry, r.Classiques, r.Matchs, d)
	default:
		err = archive.EcrireCSV(&buf, d)
	}
	if err != nil {
		return nil, err
	}
	f.Contenu = buf.String()
	if format == model.FormatExportZip {
		f.Contenu = base64.StdEncoding.EncodeToString(buf.Bytes())
	}
	return f, nil
}

// importerArchive imports a past tournament's file for the federation's
// director: a director token limited to one tournament is FORBIDDEN, the
// file naming the tournament being the client's word. It answers once the
// archive's read models hold the file; until then the archive's reads do
// not wait for it (importsEnCours).
func (r *Resolver) importerArchive(ctx context.Context, fichier, contenu string, clientMutationID *string) (*model.ImportArchive, error) {
	ctx, md, err := r.commande(ctx, []acces.Role{acces.Directeur}, acces.Portee{}, nil, clientMutationID)
	if err != nil {
		return nil, err
	}
	if h, _ := habilitation(ctx); h.Tournoi != "" {
		return nil, &erreur.Erreur{Code: CodeForbidden, Message: fmt.Sprintf("l'import dans l'archive est réservé au directeur de la fédération (jeton sans tournoi), pas au directeur du tournoi %s", h.Tournoi)}
	}
	m, flux := r.archiveImport()
	b, err := archive.Importer(ctx, flux, fichier, []byte(contenu), md)
	defer r.imports.retirer(m.plage)
	if err != nil {
		return nil, err
	}
	// The answer tells the file is in the archive: it comes once every
	// read model has folded it (the whole head when this request wrote
	// nothing, the file being another request's).
	var pos uint64
	if m.plage != nil {
		pos = m.plage.dernier
	}
	if err := r.lecturesA(ctx, pos); err != nil {
		return nil, err
	}
	return &model.ImportArchive{Tournoi: b.Tournoi, Type: historique.Kind(b.Genre), Lignes: b.Lignes, Empreinte: b.Empreinte, DejaImporte: b.DejaImporte}, nil
}

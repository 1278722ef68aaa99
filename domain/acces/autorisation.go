package acces

import (
	"arbitre/domain/erreur"
	"fmt"
)

// Portee is what an action touches: a tournament and, for bulletins, a table.
type Portee struct {
	Tournoi string
	// Table is 0 when the action concerns no table.
	Table int
	// Siege says the action concerns one player's seat, Table being that
	// player's table from the stored facts (0 when he has none): an arbiter
	// limited to some tables may not act for a player seated nowhere.
	Siege bool
}

// Autoriser decides whether h may act with one of the roles on the scope:
// the role must match (the director may do everything an arbiter or the
// commission does), the tournament must be the token's own unless the token
// covers every tournament, and an arbiter's table must be in the token's
// range.
func Autoriser(h Habilitation, roles []Role, p Portee) error {
	allowed := false
	for _, r := range roles {
		if h.Role == r || h.Role == Directeur {
			allowed = true
		}
	}
	switch {
	case !allowed:
		return &erreur.Erreur{Code: CodeForbidden, Message: fmt.Sprintf("action réservée : %v (jeton %s)", roles, h.Role)}
	case h.Tournoi != "" && p.Tournoi != "" && h.Tournoi != p.Tournoi:
		return &erreur.Erreur{Code: CodeForbidden, Message: fmt.Sprintf("ce jeton vaut pour le tournoi %s, pas %s", h.Tournoi, p.Tournoi)}
	case h.Role == Arbitre && p.Siege && p.Table == 0 && !h.Tables.Contains(0):
		return &erreur.Erreur{Code: CodeForbidden, Message: fmt.Sprintf("ce joueur n'a pas de table : hors des tables de ce jeton (tables %s)", h.Tables)}
	case h.Role == Arbitre && p.Table != 0 && !h.Tables.Contains(p.Table):
		return &erreur.Erreur{Code: CodeForbidden, Message: fmt.Sprintf("la table %d n'est pas attribuée à ce jeton (tables %s)", p.Table, h.Tables)}
	}
	return nil
}

// PeutEmettre decides whether issuer may issue the requested token: only a
// director, and a director limited to one tournament only for that
// tournament.
func PeutEmettre(issuer Habilitation, d Demande) error {
	if issuer.Role != Directeur {
		return &erreur.Erreur{Code: CodeForbidden, Message: "seul le juge-arbitre émet des jetons"}
	}
	if issuer.Tournoi != "" && d.Tournoi != issuer.Tournoi {
		return &erreur.Erreur{Code: CodeForbidden, Message: fmt.Sprintf("ce jeton de directeur vaut pour le tournoi %s seulement", issuer.Tournoi)}
	}
	return nil
}

// PeutRevoquer decides whether issuer may revoke the token cible, whose
// scope is the one its emission recorded: only a director; a director
// limited to one tournament only that tournament's tokens, never a token
// valid for every tournament. The tokens cible issued, revoked with it,
// are within its scope (PeutEmettre): the cascade never leaves it.
func PeutRevoquer(issuer, cible Habilitation) error {
	switch {
	case issuer.Role != Directeur:
		return &erreur.Erreur{Code: CodeForbidden, Message: "seul le juge-arbitre révoque des jetons"}
	case issuer.Tournoi != "" && cible.Tournoi == "":
		return &erreur.Erreur{Code: CodeForbidden, Message: "seul un jeton de directeur valable pour tous les tournois révoque un jeton valable pour tous les tournois"}
	case issuer.Tournoi != "" && cible.Tournoi != issuer.Tournoi:
		return &erreur.Erreur{Code: CodeForbidden, Message: fmt.Sprintf("ce jeton de directeur vaut pour le tournoi %s seulement", issuer.Tournoi)}
	}
	return nil
}

// PorteeListe decides which tokens lecteur may list: only a director's;
// a director limited to one tournament lists that tournament's only.
// tournoi, when given, limits the list to one tournament's tokens. tous
// says every token is listed; otherwise those of the tournament returned.
func PorteeListe(lecteur Habilitation, tournoi string) (tous bool, portee string, err error) {
	switch {
	case lecteur.Role != Directeur:
		return false, "", &erreur.Erreur{Code: CodeForbidden, Message: "seul le juge-arbitre liste les jetons"}
	case lecteur.Tournoi != "" && tournoi != "" && tournoi != lecteur.Tournoi:
		return false, "", &erreur.Erreur{Code: CodeForbidden, Message: fmt.Sprintf("ce jeton de directeur vaut pour le tournoi %s seulement", lecteur.Tournoi)}
	case lecteur.Tournoi != "":
		return false, lecteur.Tournoi, nil
	}
	return tournoi == "", tournoi, nil
}

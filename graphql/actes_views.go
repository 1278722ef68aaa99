package graphql

import (
	"context"
	"strings"

	"arbitre/domain/acces"
)

// rolesFrancais are the roles recorded in events' metadata, in French.
var rolesFrancais = map[string]string{
	"director": "directeur", "arbiter": "arbitre", "commission": "commission", "centre": "centre",
}

// nommerActeur names who acted, for people (Acte.qui): a token's holder by
// its label with his role, else by his role and the token's first
// characters; an actor that is not a token (the simulation, the command
// line) as recorded.
func (r *Resolver) nommerActeur(ctx context.Context, acteur, role string) string {
	fr := rolesFrancais[strings.ToLower(role)]
	if fr == "" {
		fr = role
	}
	id, jeton := strings.CutPrefix(acteur, "jeton:")
	if !jeton {
		if fr == "" || fr == acteur {
			return acteur
		}
		return acteur + " (" + fr + ")"
	}
	court := id
	if len(court) > 8 {
		court = court[:8]
	}
	h, err := r.Acces.Jetons.Jeton(ctx, id)
	if err != nil { // revoked since, or unknown: the role recorded
		return fr + ", jeton " + court
	}
	switch t := h.Tables; {
	case h.Role != acces.Arbitre || t == (acces.Tables{}):
	case t.Min == t.Max:
		fr += " de la table " + t.String()
	default:
		fr += " des tables " + t.String()
	}
	if h.Libelle != "" {
		return h.Libelle + " (" + fr + ")"
	}
	return fr + ", jeton " + court
}

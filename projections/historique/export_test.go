package historique

import "database/sql"

// LecteurDe reads the archive in db, a read model no runner runs.
func LecteurDe(db *sql.DB) *Lecteur { return &Lecteur{db: db} }

// FixerParticipationsEnAttente sets how many participations a bulk holds
// before it sorts them.
func FixerParticipationsEnAttente(p *Projection, n int64) { p.enAttente = n }

// RequeteParticipations is the query of a page of a player's games.
const RequeteParticipations = requeteParticipations

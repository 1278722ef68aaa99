package historique

import "database/sql"

// LecteurDe reads the archive in db, a read model no runner runs.
func LecteurDe(db *sql.DB) *Lecteur { return &Lecteur{db: db} }

package classique

import "database/sql"

// LecteurClassementDe reads the standings in db, a read model no runner
// runs.
func LecteurClassementDe(db *sql.DB) *LecteurClassement { return &LecteurClassement{db: db} }

// LecteurCotesDe reads the cotes in db, a read model no runner runs.
func LecteurCotesDe(db *sql.DB) *LecteurCotes { return &LecteurCotes{db: db} }

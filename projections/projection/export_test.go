package projection

import (
	"context"
	"database/sql"
	"sync/atomic"
	"time"

	"arbitre/domain/eventstore"
)

// CompterLiens counts the links of the chain the runners and their
// read-ahead hash (verifierLien) until restore is called.
func CompterLiens() (liens *atomic.Int64, restore func()) {
	liens = new(atomic.Int64)
	avant := verifierLien
	verifierLien = func(precedent []byte, e *eventstore.Event) error {
		liens.Add(1)
		return avant(precedent, e)
	}
	return liens, func() { verifierLien = avant }
}

// CompterTransactions counts the transactions the runners begin until
// restore is called.
func CompterTransactions() (transactions *atomic.Int64, restore func()) {
	transactions = new(atomic.Int64)
	avant := commencer
	commencer = func(ctx context.Context, db *sql.DB) (*sql.Tx, error) {
		transactions.Add(1)
		return avant(ctx, db)
	}
	return transactions, func() { commencer = avant }
}

// BornerPassage bounds how far a runner passes events without writing its
// checkpoint (passageMax) until restore is called.
func BornerPassage(events int, duree time.Duration) (restore func()) {
	avant := passageMax
	passageMax.events, passageMax.duree = events, duree
	return func() { passageMax = avant }
}

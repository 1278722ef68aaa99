package projection

import (
	"sync/atomic"

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

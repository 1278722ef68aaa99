package graphql

import (
	"context"
	"sync"

	"arbitre/domain/eventstore"
)

// importsEnCours are the archive imports stored but not answered yet. The
// archive's reads do not wait for them: nobody was told of them, and an
// import answers only once every read model has folded its file (its own
// answer is then a read of its write, and any read starting after it sees
// the file). Without this, a read arriving during an import waited for the
// views to fold every file stored so far (issue 34: p99 30 s at 200
// queries/s during an import).
type importsEnCours struct {
	// mu orders an import's append and its recording here (Lock) against
	// the reading of the log's head by the archive's reads (RLock): a read
	// that sees the import's events in the head sees its range too.
	mu     sync.RWMutex
	plages map[*plageImport]struct{}
}

// plageImport is the global positions of an import's events, from the
// first to the last (one append: no other writer's event between them).
type plageImport struct{ premier, dernier uint64 }

// aLire is the position the archive's reads wait for: the log's head, but
// before the imports in flight that end it. Another writer's event after an
// import in flight keeps the head (it may be acknowledged; the views fold in
// order, so the read waits for the import too).
func (s *importsEnCours) aLire(ctx context.Context, head func(context.Context) (uint64, error)) (uint64, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	pos, err := head(ctx)
	if err != nil {
		return 0, err
	}
	for recule := true; recule; {
		recule = false
		for p := range s.plages {
			if p.premier <= pos && pos <= p.dernier {
				// The event before the import: a store whose positions have
				// gaps only makes the read wait longer.
				pos, recule = p.premier-1, true
			}
		}
	}
	return pos, nil
}

// retirer forgets an import once it is answered (nil: nothing recorded).
func (s *importsEnCours) retirer(p *plageImport) {
	if p == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.plages, p)
}

// magasinImport is the store one import writes through: its append is
// recorded among the imports in flight before any read can see it in the
// log's head.
type magasinImport struct {
	eventstore.Store
	suivi *importsEnCours
	plage *plageImport
}

func (m *magasinImport) Append(ctx context.Context, stream string, expected eventstore.ExpectedRevision, events ...eventstore.EventData) (eventstore.AppendResult, error) {
	m.suivi.mu.Lock()
	defer m.suivi.mu.Unlock()
	res, err := m.Store.Append(ctx, stream, expected, events...)
	if err != nil || len(events) == 0 {
		return res, err
	}
	premier, err := m.Store.ReadStream(ctx, stream, res.Revision+1-uint64(len(events)), 1)
	if err != nil || len(premier) == 0 {
		// Not recorded: the reads then wait for this import, as they
		// would for any write.
		return res, nil
	}
	m.plage = &plageImport{premier: premier[0].Position, dernier: res.Position}
	if m.suivi.plages == nil {
		m.suivi.plages = map[*plageImport]struct{}{}
	}
	m.suivi.plages[m.plage] = struct{}{}
	return res, nil
}

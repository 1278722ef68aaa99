// Package projectiontest holds a projection for the tests of the stores and
// of the projections' machinery: an index of the streams (per stream its
// kind, event count, last revision and first/last recorded times, and per
// event type its count) that folds any event, whatever its type. It was the
// archive index nobody read (issue 33): serve no longer keeps it.
package projectiontest

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/streamname"
	"arbitre/projections/projection"
)

// Name is the projection's name and checkpoint key.
const Name = "archive"

// KindOther is the kind of a stream whose name is not one of the
// federation's (partie, match, tournoi, appel).
const KindOther = "autre"

const schema = `
CREATE TABLE IF NOT EXISTS archive_streams (
	stream            TEXT PRIMARY KEY,
	kind              TEXT    NOT NULL,
	events            INTEGER NOT NULL,
	last_revision     INTEGER NOT NULL,
	first_recorded_at INTEGER NOT NULL,
	last_recorded_at  INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS archive_event_types (
	type   TEXT PRIMARY KEY,
	events INTEGER NOT NULL
);`

// Projection maintains the archive index.
type Projection struct{}

var (
	_ projection.Batcher     = Projection{}
	_ projection.Folder      = Projection{}
	_ projection.PayloadUser = (*compte)(nil)
)

// Name returns Name.
func (Projection) Name() string { return Name }

// Setup creates the tables.
func (Projection) Setup(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, schema)
	return err
}

// Reset empties the tables.
func (Projection) Reset(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `DELETE FROM archive_streams; DELETE FROM archive_event_types;`)
	return err
}

// Apply counts one event.
func (p Projection) Apply(ctx context.Context, tx *sql.Tx, e eventstore.Event) error {
	return p.ApplyBatch(ctx, tx, []projection.Decoded{{Event: &e}})
}

// ApplyBatch counts events, writing each stream's and each type's row once
// (projection.Batcher).
func (Projection) ApplyBatch(ctx context.Context, tx *sql.Tx, events []projection.Decoded) error {
	c := compte{}
	for _, e := range events {
		c.ajouter(e.Event)
	}
	return c.Write(ctx, tx)
}

// UsesPayload is false: the archive counts events, it never reads their
// payloads (projection.PayloadUser).
func (Projection) UsesPayload(string) bool { return false }

// Fold counts the whole log in memory during a rebuild and writes each
// row once at the end (projection.Folder, issue 16 item 10).
func (Projection) Fold() projection.Fold { return &compte{} }

// tally is what a batch adds to one stream's row.
type tally struct {
	kind            string
	events          int
	lastRevision    uint64
	firstAt, lastAt int64
}

// compte is what events add to the index: the counts add up, the last
// event of a stream sets the rest.
type compte struct {
	streams []string
	tallies map[string]*tally
	types   []string
	counts  map[string]int
}

func (c *compte) ajouter(e *eventstore.Event) {
	if c.tallies == nil {
		c.tallies, c.counts = map[string]*tally{}, map[string]int{}
	}
	at := e.Metadata.RecordedAt.UnixNano()
	t := c.tallies[e.Stream]
	if t == nil {
		t = &tally{kind: KindOther, firstAt: at}
		if k, _, err := streamname.ParseStream(e.Stream); err == nil {
			t.kind = string(k)
		}
		c.tallies[e.Stream] = t
		c.streams = append(c.streams, e.Stream)
	}
	t.events++
	t.lastRevision, t.lastAt = e.Revision, at
	if c.counts[e.Type] == 0 {
		c.types = append(c.types, e.Type)
	}
	c.counts[e.Type]++
}

// Add counts one event (projection.Fold).
func (c *compte) Add(_ context.Context, e projection.Decoded) error {
	c.ajouter(e.Event)
	return nil
}

// UsesPayload is false: the archive counts events, it never reads their
// payloads (projection.PayloadUser).
func (*compte) UsesPayload(string) bool { return false }

// Write adds the counts to the rows (projection.Fold).
func (c *compte) Write(ctx context.Context, tx *sql.Tx) error {
	q := projection.NewRequetes(tx)
	for _, stream := range c.streams {
		t := c.tallies[stream]
		if err := q.Exec(ctx, `INSERT INTO archive_streams (stream, kind, events, last_revision, first_recorded_at, last_recorded_at)
		VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (stream) DO UPDATE SET events = events + excluded.events, last_revision = excluded.last_revision, last_recorded_at = excluded.last_recorded_at`,
			stream, t.kind, t.events, t.lastRevision, t.firstAt, t.lastAt); err != nil {
			return fmt.Errorf("indexing stream %s: %w", stream, err)
		}
	}
	for _, typ := range c.types {
		if err := q.Exec(ctx, `INSERT INTO archive_event_types (type, events) VALUES (?, ?)
		ON CONFLICT (type) DO UPDATE SET events = events + excluded.events`, typ, c.counts[typ]); err != nil {
			return fmt.Errorf("counting type %s: %w", typ, err)
		}
	}
	return q.Fin(ctx)
}

// Stream is one row of the index.
type Stream struct {
	Name            string
	Kind            string
	Events          int
	LastRevision    uint64
	FirstRecordedAt time.Time
	LastRecordedAt  time.Time
}

// Streams lists the indexed streams by name.
func Streams(ctx context.Context, db *sql.DB) ([]Stream, error) {
	rows, err := db.QueryContext(ctx, `SELECT stream, kind, events, last_revision, first_recorded_at, last_recorded_at FROM archive_streams ORDER BY stream`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Stream
	for rows.Next() {
		var s Stream
		var first, last int64
		if err := rows.Scan(&s.Name, &s.Kind, &s.Events, &s.LastRevision, &first, &last); err != nil {
			return nil, err
		}
		s.FirstRecordedAt, s.LastRecordedAt = time.Unix(0, first).UTC(), time.Unix(0, last).UTC()
		out = append(out, s)
	}
	return out, rows.Err()
}

// EventTypes returns the number of events per type.
func EventTypes(ctx context.Context, db *sql.DB) (map[string]int, error) {
	rows, err := db.QueryContext(ctx, `SELECT type, events FROM archive_event_types`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var typ string
		var n int
		if err := rows.Scan(&typ, &n); err != nil {
			return nil, err
		}
		out[typ] = n
	}
	return out, rows.Err()
}

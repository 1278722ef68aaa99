package correction

import (
	"encoding/json"
	"io"

	"arbitre/engine/jsonl"
	"arbitre/engine/lexicon"
)

// Case is one input line of `arbitre bulletin correct`: the coup's context
// and the bulletin as written.
type Case struct {
	ID json.RawMessage `json:"id"`
	Context
	Bulletin *json.RawMessage `json:"bulletin"`
}

// CaseResult is one output line of the batch contract.
type CaseResult struct {
	ID               json.RawMessage `json:"id"`
	Paid             int             `json:"paid"`
	Sanction         Sanction        `json:"sanction"`
	Reasons          []Reason        `json:"reasons"`
	Commission       bool            `json:"commission"`
	Place            *string         `json:"place"`
	ScoreWrittenBack *int            `json:"score_written_back"`
}

// Batch corrects JSONL cases, preparing each distinct coup once.
type Batch struct {
	lex   *lexicon.Lexicon
	x     *Corrector
	coups map[string]*Coup
}

// NewBatch returns a batch corrector over lex.
func NewBatch(lex *lexicon.Lexicon) *Batch {
	return &Batch{lex: lex, x: NewCorrector(lex), coups: map[string]*Coup{}}
}

// Run reads cases from r and writes one answer per line to w, in order
// (jsonl.Run: a blank line is skipped). A malformed line gets a
// jsonl.Failure and the run goes on; only I/O errors stop it.
func (bt *Batch) Run(r io.Reader, w io.Writer) (jsonl.Tally, error) { return jsonl.Run(r, w, bt.Line) }

// Line answers one input line: a CaseResult or a jsonl.Failure.
func (bt *Batch) Line(line []byte) any {
	var c Case
	if err := json.Unmarshal(line, &c); err != nil {
		return jsonl.Failure{ID: idOf(line), Error: errorf(ErrJSON, "", "line is not a case: %v", err).Error()}
	}
	if c.ID == nil {
		c.ID = json.RawMessage("null")
	}
	if c.Bulletin == nil {
		return jsonl.Failure{ID: c.ID, Error: errorf(ErrJSON, "bulletin", "missing").Error()}
	}
	b, err := ParseBulletin(*c.Bulletin)
	if err != nil {
		return jsonl.Failure{ID: c.ID, Error: prefix("bulletin", err)}
	}
	cp, err := bt.coup(c.Context)
	if err != nil {
		return jsonl.Failure{ID: c.ID, Error: err.Error()}
	}
	d := bt.x.Decide(cp, &b)
	res := CaseResult{ID: c.ID, Paid: d.Paid, Sanction: d.Sanction, Reasons: d.Reasons,
		Commission: d.Commission, ScoreWrittenBack: d.ScoreWrittenBack}
	if d.Place != "" {
		res.Place = &d.Place
	}
	return res
}

// coup prepares a context once per distinct content.
func (bt *Batch) coup(ctx Context) (*Coup, error) {
	key, _ := json.Marshal(ctx)
	if cp, ok := bt.coups[string(key)]; ok {
		return cp, nil
	}
	cp, err := NewCoup(bt.lex, ctx)
	if err != nil {
		return nil, err
	}
	if len(bt.coups) > 4096 {
		clear(bt.coups)
	}
	bt.coups[string(key)] = cp
	return cp, nil
}

// idOf recovers the id of a line that does not decode as a case.
func idOf(line []byte) json.RawMessage {
	var probe struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &probe) != nil || probe.ID == nil {
		return json.RawMessage("null")
	}
	return probe.ID
}

// prefix puts a validation error's path under a parent field.
func prefix(parent string, err error) string {
	if e, ok := err.(*Error); ok {
		p := parent
		if e.Path != "" {
			p += "." + e.Path
		}
		return (&Error{Code: e.Code, Path: p, Msg: e.Msg}).Error()
	}
	return err.Error()
}

package charge

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"arbitre/apiclient"
)

// The standings phase: the public standings queried one at a time, then at a
// fixed rate.

const standingsQuery = `query($p: ID, $t: ID) { classement(partie:$p, tournoi:$t) {
  rang licence nom club serie score top negatif pourcentage solos avertissements penalites enAttente } }`

// lignesComptees is the number of lines of a standings answer, read
// without decoding them: the client runs on the server's two cores, and
// decoding the 13 fields of 1,000 lines per answer (encoding/json) cost it
// six times what the server spent answering, which the phase then
// measured (docs/charge.md). The answer is still read whole as JSON.
type lignesComptees int

func (n *lignesComptees) UnmarshalJSON(data []byte) error {
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	if err := attendreJeton(dec, '{'); err != nil {
		return err
	}
	cle, err := dec.ReadToken()
	if err != nil {
		return err
	}
	if cle.String() != "classement" {
		return fmt.Errorf("classement attendu, pas %q", cle.String())
	}
	if err := attendreJeton(dec, '['); err != nil {
		return err
	}
	for *n = 0; dec.PeekKind() != ']'; *n++ {
		if err := dec.SkipValue(); err != nil {
			return err
		}
	}
	return nil
}

// attendreJeton reads the next token, which must be kind.
func attendreJeton(dec *jsontext.Decoder, kind jsontext.Kind) error {
	t, err := dec.ReadToken()
	if err == nil && t.Kind() != kind {
		err = fmt.Errorf("%v attendu, pas %v", kind, t.Kind())
	}
	return err
}

// UnloadedQueries is how many standings queries are sent one at a time
// before the fixed rate.
const UnloadedQueries = 20

// standingsPhase sends UnloadedQueries standings queries one at a time, then
// c.QPS a second for c.Duration, open loop (each at its scheduled time
// whatever the others do), alternately on the simulated game and on the
// tournament's cumul, each measured from its scheduled time.
func standingsPhase(ctx context.Context, cl *chargeClient, c Config, r *standingsReport) error {
	query, err := classementParRequete(ctx, cl, c)
	if err != nil {
		return err
	}
	if r.Unloaded, err = sansCharge(query); err != nil {
		return err
	}
	r.debit = aDebitFixe(ctx, c.QPS, c.Duration, query)
	r.TargetOK = r.Errors == 0 && r.Latency.P99 <= ms(targetStandingsP99)
	return ctx.Err()
}

// classementParRequete returns the phase's query i: the simulated game's
// standings when i is even, the tournament's cumul when odd. The log does
// not change during the phase: each is first read whole and checked (an
// answer without errors, c.Players lines), then every answer must be that
// one, byte for byte. Comparing costs the client little beside the server
// on the same cores; decoding 2,000 lines 200 times a second took it
// 34 ms a query, more than both cores, which the phase then measured
// (issue 34 item 3, as the national ranking's in item 2).
func classementParRequete(ctx context.Context, cl *chargeClient, c Config) (func(i int) error, error) {
	vars := [2]map[string]any{{"p": chargeGame}, {"t": chargeTournoi}}
	var complets [2][]byte
	for k, v := range vars {
		var err error
		if complets[k], err = cl.Raw(ctx, "", standingsQuery, v); err != nil {
			return nil, err
		}
		if err := classementComplet(complets[k], c.Players); err != nil {
			return nil, fmt.Errorf("classement %v : %w", v, err)
		}
	}
	return func(i int) error {
		return cl.Read(ctx, "", standingsQuery, vars[i%2], func(r io.Reader) error {
			if err := memeReponse(r, complets[i%2]); err != nil {
				return fmt.Errorf("classement : %w", err)
			}
			return nil
		})
	}, nil
}

// classementComplet checks that body is a standings answer without errors
// of joueurs lines.
func classementComplet(body []byte, joueurs int) error {
	var a apiclient.Answer
	if err := json.Unmarshal(body, &a); err != nil {
		return fmt.Errorf("réponse illisible : %w", err)
	}
	if err := a.Err(); err != nil {
		return err
	}
	var lignes lignesComptees
	if err := json.Unmarshal(a.Data, &lignes); err != nil {
		return err
	}
	if int(lignes) != joueurs {
		return fmt.Errorf("%d lignes pour %d joueurs", lignes, joueurs)
	}
	return nil
}

// sansCharge sends UnloadedQueries queries one at a time: the service time
// of a query on an idle server.
func sansCharge(query func(i int) error) (latency, error) {
	unloaded := make([]time.Duration, UnloadedQueries)
	for i := range unloaded {
		began := time.Now()
		if err := query(i); err != nil {
			return latency{}, err
		}
		unloaded[i] = time.Since(began)
	}
	return summarize(unloaded), nil
}

// aDebitFixe sends queries at a fixed rate for the duration, open-loop:
// each query leaves at its scheduled time whatever the others do, and its
// latency is measured from that time.
func aDebitFixe(ctx context.Context, qps int, duration time.Duration, query func(i int) error) debit {
	var r debit
	n := int(duration.Seconds() * float64(qps))
	interval := time.Second / time.Duration(qps)
	lat := make([]time.Duration, n)
	var errs atomic.Int64
	var firstErr sync.Once
	var wg sync.WaitGroup
	start := time.Now()
	sent := 0
	for i := range n {
		at := start.Add(time.Duration(i) * interval)
		select {
		case <-ctx.Done():
		case <-time.After(time.Until(at)):
		}
		if ctx.Err() != nil {
			break
		}
		sent++
		wg.Go(func() {
			err := query(i)
			lat[i] = time.Since(at)
			if err != nil {
				errs.Add(1)
				firstErr.Do(func() { r.FirstError = err.Error() })
			}
		})
	}
	r.Rate = float64(sent) / time.Since(start).Seconds()
	wg.Wait()
	r.Sent, r.Errors = sent, int(errs.Load())
	r.Served = float64(sent-r.Errors) / time.Since(start).Seconds()
	r.Latency = summarize(lat[:sent])
	return r
}

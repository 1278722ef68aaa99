package charge

import (
	"arbitre/apiclient"
	"arbitre/cmd/arbitre/internal/storeflags"
	"arbitre/domain/duplicate"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/streamname"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"sync"
	"time"
)

// The bulletins phase: arbiters entering one coup's bulletins at once, then
// the store counted.

// bulletinsPhase has the arbiters enter at once one bulletin per player of
// their tables for a new coup, retrying on CONFLICT with the same
// clientMutationId and sending every fifth bulletin a second time (a client
// that lost the answer), then lists the coup's bulletins.
func bulletinsPhase(ctx context.Context, cl *chargeClient, tk chargeTokens, c Config, r *bulletinsReport) error {
	coup, top, err := cl.draw(ctx, tk.director)
	if err != nil {
		return err
	}
	r.Coup = coup
	var t struct {
		Tournoi struct {
			Joueurs []struct {
				Licence string
				Table   int
			}
		}
	}
	if err := cl.Do(ctx, tk.director, `query($t: ID!) { tournoi(id:$t) { joueurs { licence table } } }`, map[string]any{"t": chargeTournoi}, &t); err != nil {
		return err
	}
	depots := make([]depot, len(t.Tournoi.Joueurs))
	for i, j := range t.Tournoi.Joueurs {
		if depots[i], err = nouveauDepot(coup, j.Licence, bulletinOf(i, top)); err != nil {
			return err
		}
	}
	var mu sync.Mutex
	var lat []time.Duration
	var wg sync.WaitGroup
	start := time.Now()
	for k, token := range tk.arbiters {
		tables := c.arbiterTables(k)
		wg.Go(func() {
			var reponse bytes.Buffer
			for i, j := range t.Tournoi.Joueurs {
				if j.Table < tables.Min || j.Table > tables.Max {
					continue
				}
				sends := 1
				if i%5 == 0 {
					sends = 2
				}
				for s := range sends {
					began := time.Now()
					conflicts, err := cl.deposit(ctx, token, &depots[i], &reponse)
					mu.Lock()
					r.Conflicts += conflicts
					if s == 0 {
						r.Expected++
						lat = append(lat, time.Since(began))
					} else {
						r.Replays++
					}
					if err != nil {
						r.Errors++
					}
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	r.ElapsedMS = ms(time.Since(start))
	r.Latency = summarize(lat)
	var listed struct{ Bulletins []struct{ Licence string } }
	if err := cl.Do(ctx, tk.director, `query($p: ID!, $c: Int!) { bulletins(partie:$p, coup:$c) { licence } }`,
		map[string]any{"p": chargeLive, "c": coup}, &listed); err != nil {
		return err
	}
	seen := map[string]int{}
	for _, b := range listed.Bulletins {
		seen[b.Licence]++
	}
	r.Listed = len(listed.Bulletins)
	for _, j := range t.Tournoi.Joueurs {
		switch n := seen[j.Licence]; {
		case n == 0:
			r.Missing++
		case n > 1:
			r.Duplicated += n - 1
		}
	}
	return ctx.Err()
}

// bulletinOf is what the i-th player wrote: the top, the top with a wrong
// score, or nothing.
func bulletinOf(i int, top solutionTop) map[string]any {
	switch i % 3 {
	case 0:
		return map[string]any{"solutions": []any{map[string]any{"word": top.Mot, "ref": top.Reference, "score": top.Score}}}
	case 1:
		return map[string]any{"solutions": []any{map[string]any{"word": top.Mot, "ref": top.Reference, "score": top.Score + 2}}}
	default:
		return map[string]any{"blank": true}
	}
}

// countStored checks the store itself, once the server is stopped: how many
// bulletin events the live coup holds, per player.
func countStored(ctx context.Context, flags *storeflags.Flags, r *bulletinsReport) error {
	store, _, err := flags.Open(ctx)
	if err != nil {
		return err
	}
	defer store.Close()
	stream, err := streamname.PartieStream(chargeLive)
	if err != nil {
		return err
	}
	events, err := eventstore.ReadFamily(ctx, store, stream)
	if err != nil {
		return err
	}
	perPlayer := map[string]int{}
	for _, e := range events {
		if e.Type != duplicate.TypeBulletinDepose {
			continue
		}
		var b struct {
			Coup    int    `json:"coup"`
			Licence string `json:"licence"`
		}
		if err := json.Unmarshal(e.Data, &b); err != nil {
			return err
		}
		if b.Coup == r.Coup {
			r.InStore++
			perPlayer[b.Licence]++
		}
	}
	duplicated := 0
	for _, n := range perPlayer {
		duplicated += n - 1
	}
	r.Duplicated = max(r.Duplicated, duplicated)
	r.Missing = max(r.Missing, r.Expected-len(perPlayer))
	return nil
}

// solutionTop is one of the engine's tops, as the director sees it.
type solutionTop struct {
	Mot, Reference string
	Score          int
	Admissible     bool
}

// draw has the director draw the live game's next tirage and returns the
// coup and its first admissible top.
func (cl *chargeClient) draw(ctx context.Context, director string) (int, solutionTop, error) {
	var res struct {
		Tirer struct {
			Coup      int
			Solutions []solutionTop
		}
	}
	if err := cl.Do(ctx, director, `mutation($p: ID!) { tirer(partie:$p) { coup solutions { mot reference score admissible } } }`,
		map[string]any{"p": chargeLive}, &res); err != nil {
		return 0, solutionTop{}, fmt.Errorf("tirage : %w", err)
	}
	for _, s := range res.Tirer.Solutions {
		if s.Admissible {
			return res.Tirer.Coup, s, nil
		}
	}
	return 0, solutionTop{}, errors.New("tirage : aucun top admissible")
}

const depositMutation = `mutation($p: ID!, $c: Int!, $l: ID!, $b: BulletinInput!, $m: String) {
  deposerBulletin(partie:$p, coup:$c, licence:$l, bulletin:$b, clientMutationId:$m) { licence } }`

// depot is one bulletin ready to be sent, made before the phase so that
// the load generator, on the server's cores, spends little while it
// measures (docs/charge.md): its request encoded once (every send of it is
// the same body, clientMutationId included) and the one answer that says
// it was deposited, as the server writes it.
type depot struct {
	licence string
	corps   []byte
	succes  []byte
}

// nouveauDepot is the deposit of licence's bulletin for coup.
func nouveauDepot(coup int, licence string, bulletin map[string]any) (depot, error) {
	corps, err := apiclient.Body(depositMutation, map[string]any{"p": chargeLive, "c": coup, "l": licence, "b": bulletin,
		"m": fmt.Sprintf("charge-%s-%d-%s", chargeLive, coup, licence)})
	if err != nil {
		return depot{}, err
	}
	l, err := json.Marshal(licence)
	if err != nil {
		return depot{}, err
	}
	return depot{licence: licence, corps: corps, succes: []byte(`{"data":{"deposerBulletin":{"licence":` + string(l) + `}}}`)}, nil
}

// deposit enters one bulletin, sending it again with the same
// clientMutationId after a CONFLICT (another arbiter wrote the game
// meanwhile) or a transport error; it returns how many conflicts it met.
// reponse holds the answers, the caller's for all its deposits.
func (cl *chargeClient) deposit(ctx context.Context, token string, d *depot, reponse *bytes.Buffer) (int, error) {
	conflicts := 0
	for attempt := 1; ; attempt++ {
		licence, err := cl.send(ctx, token, d, reponse)
		switch {
		case err == nil && licence == d.licence:
			return conflicts, nil
		case err == nil:
			return conflicts, fmt.Errorf("deposerBulletin a répondu pour %q", licence)
		}
		var gqlErr *apiclient.Error
		switch {
		case errors.As(err, &gqlErr) && gqlErr.Code() != "CONFLICT":
			return conflicts, err
		case attempt == maxAttempts || ctx.Err() != nil:
			return conflicts, err
		}
		if errors.As(err, &gqlErr) {
			conflicts++
		}
		time.Sleep(time.Duration(rand.IntN(1000*min(attempt, 20))) * time.Microsecond)
	}
}

// send sends d once and returns the licence its answer names. The answer
// is first compared with the one answer of success, byte for byte; any
// other (an error, CONFLICT, another licence, another layout) is decoded
// as Do decodes it.
func (cl *chargeClient) send(ctx context.Context, token string, d *depot, reponse *bytes.Buffer) (string, error) {
	err := cl.Post(ctx, token, d.corps, func(r io.Reader) error {
		reponse.Reset()
		_, err := reponse.ReadFrom(r)
		return err
	})
	if err != nil || bytes.Equal(reponse.Bytes(), d.succes) {
		return d.licence, err
	}
	var res struct{ DeposerBulletin struct{ Licence string } }
	err = apiclient.Decode(reponse.Bytes(), &res)
	return res.DeposerBulletin.Licence, err
}

package pairing

import (
	"arbitre/domain/erreur"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestProposeRejectsBadInputWithStableCodes(t *testing.T) {
	two := []Player{{ID: "a"}, {ID: "b"}}
	tests := []struct {
		name string
		req  Request
		code Code
	}{
		{"round zero", Request{Round: 0, Method: Swiss, Players: two}, CodeInvalidRound},
		{"unknown method", Request{Round: 1, Method: "lottery", Players: two}, CodeUnknownMethod},
		{"empty id", Request{Round: 1, Method: Swiss, Players: []Player{{ID: ""}}}, CodeEmptyPlayerID},
		{"duplicate id", Request{Round: 1, Method: Swiss, Players: []Player{{ID: "a"}, {ID: "a"}}}, CodeDuplicatePlayer},
		{"unknown player in history", Request{Round: 2, Method: Swiss, Players: two, History: []Meeting{{Round: 1, First: "a", Second: "z"}}}, CodeUnknownPlayerInHistory},
		{"self meeting", Request{Round: 2, Method: Swiss, Players: two, History: []Meeting{{Round: 1, First: "a", Second: "a"}}}, CodeSelfMeetingInHistory},
		{"more starts than games", Request{Round: 1, Method: Swiss, Players: []Player{{ID: "a", Starts: 1}, {ID: "b"}}}, CodeInvalidStarts},
		{"nobody to pair", Request{Round: 1, Method: Swiss, Players: []Player{{ID: "a", Withdrawn: true}}}, CodeNobodyToPair},
		{"nobody for king of the hill", Request{Round: 1, Method: KingOfTheHill}, CodeNobodyToPair},
		{"no bye candidate", Request{Round: 2, Method: Swiss, Players: []Player{{ID: "a", HadBye: true}}}, CodeNoByeCandidate},
		{"round robin too far", Request{Round: 2, Method: RoundRobin, Players: two}, CodeRoundOutOfRange},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Propose(tt.req)
			assert.Equal(t, tt.code, erreur.CodeOf(err), "%v", err)
		})
	}
}

func TestSinglePlayerGetsTheBye(t *testing.T) {
	p, err := Propose(Request{Round: 1, Method: Swiss, Players: []Player{{ID: "solo"}}})
	assert.NoError(t, err)
	assert.Equal(t, PlayerID("solo"), p.Bye)
	assert.Empty(t, p.Tables)
}

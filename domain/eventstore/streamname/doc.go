// Package streamname names the streams of the event store: one kind per
// aggregate (partie-, match-, tournoi-, appel-, acces-, archive-,
// federation-), parsed back by ParseStream, the table streams a duplicate
// game keeps beside its own (TableStream, MainStream, SectionBounds), and
// the family of event types each kind of stream holds (Foreign). The names
// of every aggregate are kept in this one package rather than beside each
// aggregate's adapters: ParseStream, the archive and verify need them all.
package streamname

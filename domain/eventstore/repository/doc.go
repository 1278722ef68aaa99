// Package repository loads and saves the aggregates: the events of a
// stream decoded by the registry (Streams), the one repository replaying a
// stream into an aggregate and appending its new events at the version it
// was loaded at (Repository, Aggregate), and the reading of an aggregate
// kept across a stream and its table streams (FamilyRead).
package repository

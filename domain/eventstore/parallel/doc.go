// Package parallel runs work on several goroutines and hands the results on
// in the order the work was produced (InOrder): the reads of the log by
// verify and the rebuilds of the projections.
package parallel

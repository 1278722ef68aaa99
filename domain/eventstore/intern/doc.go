// Package intern keeps one copy of the strings the log repeats (Intern).
package intern

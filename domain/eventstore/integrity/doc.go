// Package integrity keeps the event log honest: the hash chaining each
// event to the one before it in the global log (ChainHash, ChainLink), the
// seal a store keeps beside its log (Seal, Sealed) and the check of a whole
// log against its chain, its seals and the stores' rules (Verify).
package integrity

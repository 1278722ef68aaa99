package lexicon

import (
	"encoding/binary"
	"fmt"
	"sort"
)

// Separator is the GADDAG's turn symbol: the path before it spells the
// letters left of the start square in reverse, the path after it the letters
// to the right.
const Separator = 0

// Build compiles a word list into a minimal GADDAG. Every word w of n letters
// yields the n paths rev(w[:i+1]) ^ w[i+1:], the separator omitted when i is
// the last letter; identical sub-automata are shared (incremental
// construction of a minimal acyclic automaton over the sorted paths).
// EtatsMax bounds the states of the automaton under construction: 3.4
// times ODS8's, whose words share their letters as a language's do; random
// letters share none and would take gigabytes (docs/securite.md).
const EtatsMax = 1_500_000

func Build(list WordList, label string) (*Lexicon, error) {
	if len(list.Words) == 0 {
		return nil, fmt.Errorf("liste de mots sans aucun mot de 2 à %d lettres", MaxWordLength)
	}
	paths := make([]string, 0, len(list.Words)*8)
	buf := make([]byte, 0, 2*MaxWordLength)
	for _, w := range list.Words {
		for i := range w {
			if w[i] < 'A' || w[i] > 'Z' {
				return nil, fmt.Errorf("build: word %q is not folded to A-Z", w)
			}
		}
		for i := 0; i < len(w); i++ {
			buf = buf[:0]
			for j := i; j >= 0; j-- {
				buf = append(buf, w[j]-'A'+1)
			}
			if i < len(w)-1 {
				buf = append(buf, Separator)
				for j := i + 1; j < len(w); j++ {
					buf = append(buf, w[j]-'A'+1)
				}
			}
			paths = append(paths, string(buf))
		}
	}
	sort.Strings(paths)
	var b builder
	b.init()
	for _, p := range paths {
		b.add(p)
		if len(b.nodes) > EtatsMax {
			return nil, fmt.Errorf("liste de mots : son automate passe %d états, trop pour une liste de mots (ODS8 en a 442 177)", EtatsMax)
		}
	}
	arcs := b.flatten(b.finish())
	if len(arcs) > maxArcs {
		return nil, fmt.Errorf("build: %d arcs exceed the format's limit of %d", len(arcs), maxArcs)
	}
	return newLexicon(arcs, len(list.Words), label), nil
}

// bnode is a state of the automaton under construction.
type bnode struct {
	final bool
	edges []bedge
}

type bedge struct {
	symbol byte
	child  int32
}

// builder holds the states, the register of minimized states and the path
// of the previous input still open for minimization.
type builder struct {
	nodes    []bnode
	free     []int32
	register map[string]int32
	path     []int32
	prev     string
	key      []byte
}

func (b *builder) init() {
	b.register = make(map[string]int32)
	b.path = []int32{b.newNode()}
}

func (b *builder) newNode() int32 {
	if n := len(b.free); n > 0 {
		id := b.free[n-1]
		b.free = b.free[:n-1]
		return id
	}
	b.nodes = append(b.nodes, bnode{})
	return int32(len(b.nodes) - 1)
}

// add inserts the next path; paths arrive sorted and unique.
func (b *builder) add(p string) {
	common := 0
	for common < len(p) && common < len(b.prev) && p[common] == b.prev[common] {
		common++
	}
	b.minimizeDownTo(common)
	for i := common; i < len(p); i++ {
		n := b.newNode()
		parent := b.path[len(b.path)-1]
		b.nodes[parent].edges = append(b.nodes[parent].edges, bedge{symbol: p[i], child: n})
		b.path = append(b.path, n)
	}
	b.nodes[b.path[len(b.path)-1]].final = true
	b.prev = p
}

// minimizeDownTo replaces every open state deeper than depth by its
// registered equivalent, deepest first.
func (b *builder) minimizeDownTo(depth int) {
	for len(b.path)-1 > depth {
		child := b.path[len(b.path)-1]
		b.path = b.path[:len(b.path)-1]
		parent := b.path[len(b.path)-1]
		canon := b.canonical(child)
		edges := b.nodes[parent].edges
		edges[len(edges)-1].child = canon
	}
}

// canonical returns the registered state equivalent to id, registering id
// when it is the first of its kind and recycling it otherwise.
func (b *builder) canonical(id int32) int32 {
	n := &b.nodes[id]
	b.key = b.key[:0]
	if n.final {
		b.key = append(b.key, 1)
	} else {
		b.key = append(b.key, 0)
	}
	for _, e := range n.edges {
		b.key = append(b.key, e.symbol)
		b.key = binary.LittleEndian.AppendUint32(b.key, uint32(e.child))
	}
	if existing, ok := b.register[string(b.key)]; ok {
		n.edges = n.edges[:0]
		n.final = false
		b.free = append(b.free, id)
		return existing
	}
	b.register[string(b.key)] = id
	return id
}

// finish minimizes what remains open and returns the root.
func (b *builder) finish() int32 {
	b.minimizeDownTo(0)
	return b.path[0]
}

// flatten lays the automaton out as arc lists: entry 0 points at the root's
// list, each state with edges owns one contiguous run of arcs (breadth-first,
// so that the first levels stay close in memory).
func (b *builder) flatten(root int32) []uint32 {
	offset := make(map[int32]uint32, len(b.register))
	order := []int32{root}
	next := uint32(1)
	offset[root] = next
	next += uint32(len(b.nodes[root].edges))
	for i := 0; i < len(order); i++ {
		for _, e := range b.nodes[order[i]].edges {
			if _, seen := offset[e.child]; seen || len(b.nodes[e.child].edges) == 0 {
				continue
			}
			offset[e.child] = next
			next += uint32(len(b.nodes[e.child].edges))
			order = append(order, e.child)
		}
	}
	arcs := make([]uint32, next)
	arcs[0] = makeArc(Separator, false, true, offset[root])
	for _, id := range order {
		edges := b.nodes[id].edges
		base := offset[id]
		for k, e := range edges {
			child := b.nodes[e.child]
			var to uint32
			if len(child.edges) > 0 {
				to = offset[e.child]
			}
			arcs[base+uint32(k)] = makeArc(e.symbol, child.final, k == len(edges)-1, to)
		}
	}
	return arcs
}

package eventstore

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"slices"

	jsonv2 "github.com/go-json-experiment/json"
	jsonv1 "github.com/go-json-experiment/json/v1"
	"github.com/google/uuid"
)

// Upcaster rewrites a payload of schema version v into version v+1.
type Upcaster func(data json.RawMessage) (json.RawMessage, error)

// Registry maps explicit, versioned event type names to Go types and upcasts
// old payloads to the current version when they are read. Names are never
// derived from Go identifiers, so renaming a struct does not break replay.
// A Registry is filled at start-up and read-only afterwards; reads are safe
// for concurrent use.
type Registry struct {
	byName map[string]*registeredType
	byType map[reflect.Type]*registeredType
}

type registeredType struct {
	name    string
	version int
	goType  reflect.Type
	// upcasters[i] turns version i+1 into version i+2.
	upcasters []Upcaster
	// rapide, when set, decodes the current version's usual layout (see
	// Accelerate).
	rapide func(data []byte) (any, bool)
}

// typeNamePattern accepts "partie.tirage", "appel.decision_rendue"...: lower
// case words joined by dots, never starting with '$' (reserved by
// EventStoreDB for system events).
var typeNamePattern = regexp.MustCompile(`^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$`)

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{byName: map[string]*registeredType{}, byType: map[reflect.Type]*registeredType{}}
}

// Register declares that payloads of Go type T are recorded as event type
// name at schema version version. upcasters must hold exactly version-1
// functions: upcasters[0] turns version 1 into 2, and so on.
func Register[T any](r *Registry, name string, version int, upcasters ...Upcaster) error {
	goType := reflect.TypeFor[T]()
	switch {
	case !typeNamePattern.MatchString(name):
		return newError(CodeInvalidArgument, fmt.Sprintf("event type name %q must be dot-separated lower case words", name), nil)
	case version < 1:
		return newError(CodeInvalidArgument, fmt.Sprintf("event type %q: version %d is below 1", name, version), nil)
	case len(upcasters) != version-1:
		return newError(CodeInvalidArgument, fmt.Sprintf("event type %q at version %d needs %d upcasters, got %d", name, version, version-1, len(upcasters)), nil)
	case r.byName[name] != nil:
		return newError(CodeInvalidArgument, fmt.Sprintf("event type %q is registered twice", name), nil)
	case r.byType[goType] != nil:
		return newError(CodeInvalidArgument, fmt.Sprintf("Go type %s is already registered as %q", goType, r.byType[goType].name), nil)
	}
	for i, u := range upcasters {
		if u == nil {
			return newError(CodeInvalidArgument, fmt.Sprintf("event type %q: upcaster from version %d is nil", name, i+1), nil)
		}
	}
	rt := &registeredType{name: name, version: version, goType: goType, upcasters: upcasters}
	r.byName[name] = rt
	r.byType[goType] = rt
	return nil
}

// CurrentVersion returns the schema version this build writes for a type.
func (r *Registry) CurrentVersion(name string) (int, error) {
	rt, ok := r.byName[name]
	if !ok {
		return 0, &UnknownEventTypeError{Type: name}
	}
	return rt.version, nil
}

// Types returns the names of every registered event type, sorted: the
// types a read model reads (projection.Selectif), and what its test feeds
// it to check that.
func (r *Registry) Types() []string {
	return slices.Sorted(maps.Keys(r.byName))
}

// NewEventData encodes a registered payload as an event to append.
func (r *Registry) NewEventData(id uuid.UUID, payload any, md Metadata) (EventData, error) {
	rt, ok := r.byType[reflect.TypeOf(payload)]
	if !ok {
		return EventData{}, newError(CodeUnknownEventType, fmt.Sprintf("Go type %T is not registered", payload), nil)
	}
	data, err := json.Marshal(payload)
	if err != nil {
		return EventData{}, newError(CodeMalformedPayload, "encoding "+rt.name, err)
	}
	return EventData{ID: id, Type: rt.name, Version: rt.version, Data: data, Metadata: md}, nil
}

// Upcast brings an event's payload to the current schema version of its
// type. An unknown type or a version newer than this build are typed errors.
func (r *Registry) Upcast(e Event) (Event, error) {
	rt, ok := r.byName[e.Type]
	if !ok {
		return Event{}, &UnknownEventTypeError{Type: e.Type}
	}
	if e.Version > rt.version {
		return Event{}, &FutureSchemaVersionError{Type: e.Type, Version: e.Version, Supported: rt.version}
	}
	if e.Version < 1 {
		return Event{}, newError(CodeMalformedPayload, fmt.Sprintf("event %s at position %d: schema version %d is below 1", e.Type, e.Position, e.Version), nil)
	}
	for v := e.Version; v < rt.version; v++ {
		data, err := rt.upcasters[v-1](e.Data)
		if err != nil {
			return Event{}, newError(CodeMalformedPayload, fmt.Sprintf("upcasting %s at position %d from version %d", e.Type, e.Position, v), err)
		}
		e.Data = data
	}
	e.Version = rt.version
	return e, nil
}

// semantiqueV1 are the options under which go-json-experiment/json (the
// coming encoding/json/v2) decodes exactly as encoding/json: it decodes a
// payload in a quarter of the allocations and less than half the CPU
// (issue 16, item 10).
var semantiqueV1 = jsonv1.DefaultOptionsV1()

// Accelerate gives type name, registered with Go type T, a decoder of its
// current version that reads the layout encoding/json writes without
// reflection, and says ok false for any other bytes: Decode then decodes
// them the general way. It must give exactly what Decode gives (issue 16,
// item 10: the rebuild's hottest types). Call it before the registry is
// shared.
func Accelerate[T any](r *Registry, name string, decoder func(data []byte) (T, bool)) error {
	rt, ok := r.byName[name]
	if !ok || rt.goType != reflect.TypeFor[T]() {
		return newError(CodeInvalidArgument, fmt.Sprintf("event type %q is not registered with Go type %s", name, reflect.TypeFor[T]()), nil)
	}
	rt.rapide = func(data []byte) (any, bool) { return decoder(data) }
	return nil
}

// Decode upcasts an event and unmarshals its payload into the registered Go
// type, with encoding/json's semantics; the result holds a value of that
// type (not a pointer).
func (r *Registry) Decode(e Event) (any, error) {
	if rt := r.byName[e.Type]; rt != nil && rt.rapide != nil && e.Version == rt.version {
		if v, ok := rt.rapide(e.Data); ok {
			return v, nil
		}
	}
	e, err := r.Upcast(e)
	if err != nil {
		return nil, err
	}
	ptr := reflect.New(r.byName[e.Type].goType)
	if err := jsonv2.Unmarshal(e.Data, ptr.Interface(), semantiqueV1); err != nil {
		return nil, newError(CodeMalformedPayload, fmt.Sprintf("decoding %s v%d at position %d", e.Type, e.Version, e.Position), err)
	}
	return ptr.Elem().Interface(), nil
}

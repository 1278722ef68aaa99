package graphql

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	gql "github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"golang.org/x/text/unicode/norm"

	"arbitre/domain/erreur"
	"arbitre/graphql/generated"
)

// The limits of every argument a client sends, applied once for all fields
// by verifierEntrees (FieldMiddleware): ids (type ID, and the String ids
// below) hold at most maxID characters, names maxNom, other strings
// maxTexte; ids and names hold no control character, texts none but tabs
// and line breaks; lists hold at most maxElements; integers stay within their range (bornes, by argument
// or field name, else bornesParDefaut). Strings are normalised to NFC.
const (
	maxID       = 64
	maxNom      = 200
	maxTexte    = 4000
	maxElements = 1000
	// maxEcho is the longest part of an input an error message repeats.
	maxEcho = 32
)

// idsTextuels are the String arguments that hold ids.
var idsTextuels = map[string]bool{"clientMutationId": true, "tournoi": true}

// noms are the String arguments and fields that hold a name.
var noms = map[string]bool{
	"nom": true, "libelle": true, "requerant": true, "president": true, "membre": true, "membres": true,
	"club": true, "federation": true, "serie": true, "fichier": true,
}

// bornes are the ranges of the integers that have a meaning.
var bornes = map[string][2]int{
	"table": {1, 1000}, "coup": {1, 1000}, "version": {0, math.MaxInt32}, "revision": {0, math.MaxInt32},
	"rondes": {1, 100}, "ronde": {1, 100}, "manche": {0, 3}, "cote": {0, 4000},
	"tempsParCoupSecondes": {1, 3600}, "graine": {0, math.MaxInt32}, "lettres": {0, 100}, "heures": {1, 720},
	"first": {1, 100}, "discipline": {0, 1000}, "dr": {-15, 15}, "dc": {-15, 15},
	"avertissementsGratuits": {0, 100},
}

var bornesParDefaut = [2]int{-100000, 100000}

// textesLongs are the String arguments longer than maxTexte, with their
// limit and whether they hold lines: a file sent whole (importerArchive's
// contenu) and a centre's bundle in base64 (guide §2.17; paquets: the
// twinned sites', §2.18); the request body's
// limit (1 MB by default) comes first.
var textesLongs = map[string]struct {
	max    int
	lignes bool
}{"contenu": {1 << 20, true}, "paquet": {900_000, false}, "paquets": {900_000, false}}

// sensDesBornes says in words what a range means, where a bare range would
// not tell a director why (a token's lifetime).
var sensDesBornes = map[string]string{"heures": "une validité de 1 heure à 30 jours (720 heures)"}

// schema is the API's schema, for the types of the arguments.
var schema = generated.NewExecutableSchema(generated.Config{}).Schema()

// verifierEntrees (in FieldMiddleware) refuses an argument beyond its
// limits with INVALID_INPUT naming the argument's path,
// before any resolver runs, and normalises the arguments' strings to NFC.
// Error messages repeat at most maxEcho characters of an input (sansEcho,
// applied by PresentError).
func verifierEntrees(ctx context.Context, next gql.Resolver) (any, error) {
	fc := gql.GetFieldContext(ctx)
	if fc == nil || fc.Field.Field == nil || fc.Field.Definition == nil || len(fc.Field.Arguments) == 0 {
		return next(ctx)
	}
	brut := fc.Field.ArgumentMap(gql.GetOperationContext(ctx).Variables)
	champ := Racine(fc.Field.Name)
	for _, def := range fc.Field.Definition.Arguments {
		if err := verifier(champ.Champ(def.Name), def.Name, brut[def.Name], def.Type); err != nil {
			return nil, err
		}
	}
	for k, v := range fc.Args {
		fc.Args[k] = nfc(v)
	}
	return next(ctx)
}

// refusEntree is the INVALID_INPUT of the argument at chemin.
func refusEntree(chemin Chemin, format string, args ...any) *erreur.Erreur {
	return refusal(chemin.String(), fmt.Sprintf(format, args...), nil)
}

// verifier checks the raw value v (as decoded from the request) of the
// argument or input field nom, of type t, at chemin.
func verifier(chemin Chemin, nom string, v any, t *ast.Type) error {
	if v == nil {
		return nil
	}
	if t.Elem != nil {
		liste, ok := v.([]any)
		if !ok { // a single value stands for a list of one
			return verifier(chemin, nom, v, t.Elem)
		}
		if len(liste) > maxElements {
			return refusEntree(chemin, "%d éléments, au plus %d", len(liste), maxElements)
		}
		for i, e := range liste {
			if err := verifier(chemin.Element(i), nom, e, t.Elem); err != nil {
				return err
			}
		}
		return nil
	}
	def := schema.Types[t.NamedType]
	switch {
	case def == nil:
		return nil
	case def.Kind == ast.InputObject:
		champs, _ := v.(map[string]any)
		for _, f := range def.Fields {
			if err := verifier(chemin.Champ(f.Name), f.Name, champs[f.Name], f.Type); err != nil {
				return err
			}
		}
	case t.NamedType == "ID" || (t.NamedType == "String" && idsTextuels[nom]):
		return verifierTexte(chemin, v, maxID, false)
	case t.NamedType == "String" && noms[nom]:
		return verifierTexte(chemin, v, maxNom, false)
	case t.NamedType == "String" && textesLongs[nom].max > 0:
		return verifierTexte(chemin, v, textesLongs[nom].max, textesLongs[nom].lignes)
	case t.NamedType == "String":
		return verifierTexte(chemin, v, maxTexte, true)
	case t.NamedType == "Int":
		return verifierEntier(chemin, nom, v)
	}
	return nil
}

func verifierTexte(chemin Chemin, v any, max int, lignes bool) error {
	s, ok := v.(string)
	if !ok {
		return nil // not a string: the type check of the request refuses it
	}
	if n := utf8.RuneCountInString(s); n > max {
		return refusEntree(chemin, "%d caractères, au plus %d", n, max)
	}
	for _, r := range s {
		if unicode.IsControl(r) && !(lignes && (r == '\n' || r == '\r' || r == '\t')) {
			return refusEntree(chemin, "caractère de contrôle %U interdit", r)
		}
	}
	return nil
}

func verifierEntier(chemin Chemin, nom string, v any) error {
	var n float64
	switch x := v.(type) {
	case int64:
		n = float64(x)
	case int:
		n = float64(x)
	case float64:
		n = x
	case json.Number:
		f, err := x.Float64()
		if err != nil {
			return nil // not a number: the type check of the request refuses it
		}
		n = f
	default:
		return nil
	}
	b, ok := bornes[nom]
	if !ok {
		b = bornesParDefaut
	}
	if n < float64(b[0]) || n > float64(b[1]) {
		if sens, ok := sensDesBornes[nom]; ok {
			return refusEntree(chemin, "doit être %s", sens)
		}
		return refusEntree(chemin, "doit être entre %d et %d", b[0], b[1])
	}
	return nil
}

// nfc returns v with every string normalised to NFC; v is not modified.
// An argument already in NFC, nearly every one, is returned as it is: its
// copy cost a request a few dozen allocations (issue 34 item 3).
func nfc(v any) any {
	if v == nil || enNFC(reflect.ValueOf(v)) {
		return v
	}
	copie := reflect.New(reflect.TypeOf(v)).Elem()
	copie.Set(reflect.ValueOf(v))
	normaliser(copie)
	return copie.Interface()
}

// enNFC tells whether every string normaliser would reach from v is in
// NFC already, by the quick check alone (IsNormalString allocates): a
// string it cannot tell, a combining mark in it, is normalised.
func enNFC(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.String:
		return norm.NFC.QuickSpanString(v.String()) == v.Len()
	case reflect.Pointer:
		return v.IsNil() || enNFC(v.Elem())
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Field(i); f.CanInterface() && !enNFC(f) {
				return false
			}
		}
	case reflect.Slice:
		for i := range v.Len() {
			if !enNFC(v.Index(i)) {
				return false
			}
		}
	}
	return true
}

// normaliser rewrites the strings reachable from the settable value v,
// copying what it goes through (pointers, slices) so that nothing shared
// changes.
func normaliser(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(norm.NFC.String(v.String()))
	case reflect.Pointer:
		if !v.IsNil() {
			e := reflect.New(v.Elem().Type())
			e.Elem().Set(v.Elem())
			normaliser(e.Elem())
			v.Set(e)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Field(i); f.CanSet() {
				normaliser(f)
			}
		}
	case reflect.Slice:
		if !v.IsNil() {
			c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
			reflect.Copy(c, v)
			for i := range c.Len() {
				normaliser(c.Index(i))
			}
			v.Set(c)
		}
	}
}

// guillemets finds the quoted parts of a message, where gqlgen's own
// errors repeat the input.
var guillemets = regexp.MustCompile(`"[^"]{` + strconv.Itoa(maxEcho+1) + `,}"`)

// motLong finds a run of more than maxEcho non-space characters.
var motLong = regexp.MustCompile(`[^\s"]{` + strconv.Itoa(maxEcho+1) + `,}`)

// sansEcho keeps an error message from repeating more than maxEcho
// characters of any input: the arguments of the field the error is about,
// and anything quoted (the request's text in gqlgen's errors).
func sansEcho(ctx context.Context, msg string) string {
	var entrees []string
	if fc := gql.GetFieldContext(ctx); fc != nil && fc.Field.Field != nil && gql.HasOperationContext(ctx) {
		entrees = chaines(fc.Field.ArgumentMap(gql.GetOperationContext(ctx).Variables), entrees)
	} else {
		// An error of the whole operation (GraphQL validation of the
		// variables, e.g. a value outside an enum) repeats the value
		// without quotes: no other word of it is that long.
		msg = motLong.ReplaceAllStringFunc(msg, prefixe)
	}
	return abregerMessage(msg, entrees)
}

// chaines appends the strings of a raw argument value to out.
func chaines(v any, out []string) []string {
	switch x := v.(type) {
	case string:
		out = append(out, x)
	case []any:
		for _, e := range x {
			out = chaines(e, out)
		}
	case map[string]any:
		for _, e := range x {
			out = chaines(e, out)
		}
	}
	return out
}

// abregerMessage shortens in msg each of entrees, and each quoted part,
// longer than maxEcho characters to its first maxEcho and an ellipsis.
func abregerMessage(msg string, entrees []string) string {
	for _, s := range entrees {
		if utf8.RuneCountInString(s) > maxEcho {
			msg = strings.ReplaceAll(msg, s, prefixe(s))
		}
	}
	return guillemets.ReplaceAllStringFunc(msg, func(q string) string {
		inner := q[1 : len(q)-1]
		if utf8.RuneCountInString(inner) <= maxEcho {
			return q
		}
		return `"` + prefixe(inner) + `"`
	})
}

func prefixe(s string) string { return string([]rune(s)[:maxEcho]) + "…" }

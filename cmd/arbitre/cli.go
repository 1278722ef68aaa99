package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// The command line speaks French to people: cobra's help, usage and
// flag-parsing errors are replaced here once for every command; command
// names, flag names and the JSON of the batch tools stay as documented.

// usageTemplate is cobra's default usage template in French; flags are
// rendered by optionsTexte.
const usageTemplate = `Utilisation :{{if .Runnable}}
  {{ligneUsage .}}{{end}}{{if .HasAvailableSubCommands}}
  {{.CommandPath}} [commande]{{end}}{{if .HasExample}}

Exemples :
{{.Example}}{{end}}{{if .HasAvailableSubCommands}}

Commandes :{{range .Commands}}{{if (or .IsAvailableCommand (eq .Name "help"))}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{end}}{{if .HasAvailableLocalFlags}}

Options :
{{optionsTexte .LocalFlags}}{{end}}{{if .HasAvailableInheritedFlags}}

Options héritées :
{{optionsTexte .InheritedFlags}}{{end}}{{if .HasAvailableSubCommands}}

« {{.CommandPath}} [commande] --help » décrit une commande.{{end}}
`

// helpTemplate is cobra's default help template in French.
const helpTemplate = `{{with (or .Long .Short)}}{{. | trimTrailingWhitespaces}}

{{end}}{{if or .Runnable .HasSubCommands}}{{.UsageString}}{{end}}`

// typeNames are the French names of the flag types pflag shows beside a
// flag that takes a value (a `word` in backquotes in the usage wins).
var typeNames = map[string]string{
	"string": "texte", "int": "entier", "uint": "entier", "float": "nombre", "duration": "durée",
}

func init() {
	cobra.AddTemplateFunc("ligneUsage", func(c *cobra.Command) string {
		return strings.Replace(c.UseLine(), "[flags]", "[options]", 1)
	})
	cobra.AddTemplateFunc("optionsTexte", optionsTexte)
	rootCmd.SetUsageTemplate(usageTemplate)
	rootCmd.SetHelpTemplate(helpTemplate)
	rootCmd.SetFlagErrorFunc(erreurOption)
	rootCmd.PersistentFlags().BoolP("help", "h", false, "affiche l'aide de la commande")
	rootCmd.CompletionOptions.DisableDefaultCmd = true
	rootCmd.SetHelpCommand(&cobra.Command{
		Use:     "help [commande]",
		Short:   "Aide d'une commande",
		Example: "  arbitre help replay",
		RunE: func(c *cobra.Command, args []string) error {
			cible, reste, err := c.Root().Find(args)
			if cible == nil || err != nil || len(reste) > 0 {
				return fmt.Errorf("aucune commande %q ; « arbitre --help » les liste", strings.Join(args, " "))
			}
			return cible.Help()
		},
	})
}

// optionsTexte renders flags one per line: "  -o, --output FICHIER   usage
// (défaut : x)", aligned like pflag's own rendering.
func optionsTexte(fs *pflag.FlagSet) string {
	type ligne struct{ gauche, droite string }
	var lignes []ligne
	largeur := 0
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		g := "      --" + f.Name
		if f.Shorthand != "" {
			g = "  -" + f.Shorthand + ", --" + f.Name
		}
		nom, usage := pflag.UnquoteUsage(f)
		if fr, ok := typeNames[nom]; ok {
			nom = fr
		}
		if nom != "" {
			g += " " + nom
		}
		if d := f.DefValue; d != "" && d != "0" && d != "false" && d != "0s" && d != "[]" {
			usage += fmt.Sprintf(" (défaut : %s)", d)
		}
		largeur = max(largeur, len([]rune(g)))
		lignes = append(lignes, ligne{g, usage})
	})
	var b strings.Builder
	for i, l := range lignes {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%s%s   %s", l.gauche, strings.Repeat(" ", largeur-len([]rune(l.gauche))), l.droite)
	}
	return b.String()
}

// attendus says in French what a flag of each type takes.
var attendus = map[string]string{
	"int": "un nombre entier", "uint64": "un nombre entier positif", "float64": "un nombre",
	"duration": "une durée comme 30s, 15m ou 72h", "bool": "true ou false",
}

// traductions recognise pflag's parsing errors by their text (pflag v1.0.5
// has no typed errors) and say them in French.
var traductions = []struct {
	re *regexp.Regexp
	fr func(cmd *cobra.Command, m []string) string
}{
	{regexp.MustCompile(`^unknown flag: --(.+)$`), func(_ *cobra.Command, m []string) string {
		return "option inconnue --" + m[1]
	}},
	{regexp.MustCompile(`^unknown shorthand flag: '(.)' in -.*$`), func(_ *cobra.Command, m []string) string {
		return "option inconnue -" + m[1]
	}},
	{regexp.MustCompile(`^flag needs an argument: (?:--(.+)|'(.)' in -.*)$`), func(cmd *cobra.Command, m []string) string {
		return "l'option " + nomOption(cmd, m[1]+m[2]) + " attend une valeur"
	}},
	{regexp.MustCompile(`^invalid argument "(.*)" for "(?:-., )?--([^"]+)" flag: `), func(cmd *cobra.Command, m []string) string {
		fr := fmt.Sprintf("valeur %q invalide pour --%s", m[1], m[2])
		if f := cmd.Flags().Lookup(m[2]); f != nil {
			if a, ok := attendus[f.Value.Type()]; ok {
				fr += " : attendu " + a
			}
		}
		return fr
	}},
	{regexp.MustCompile(`^bad flag syntax: (.*)$`), func(_ *cobra.Command, m []string) string {
		return "option mal écrite : " + m[1]
	}},
}

// erreurOption turns pflag's parsing errors into French, naming how to get
// the command's help.
func erreurOption(cmd *cobra.Command, err error) error {
	for _, t := range traductions {
		if m := t.re.FindStringSubmatch(err.Error()); m != nil {
			return errors.New(t.fr(cmd, m) + " ; « " + cmd.CommandPath() + " --help » liste les options")
		}
	}
	return err
}

// nomOption writes a flag as typed: --name, or -x for a shorthand.
func nomOption(cmd *cobra.Command, nom string) string {
	if len(nom) == 1 {
		if f := cmd.Flags().ShorthandLookup(nom); f != nil {
			return "--" + f.Name
		}
	}
	return "--" + nom
}

// aucunArgument refuses positional arguments, in French.
func aucunArgument(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return fmt.Errorf("%s ne prend pas d'argument (reçu %q) ; « %s --help » décrit la commande",
			cmd.CommandPath(), args, cmd.CommandPath())
	}
	return nil
}

// argumentsExacts wants exactly n positional arguments, named in the
// command's usage line.
func argumentsExacts(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return fmt.Errorf("%s attend %d argument(s), reçu %d ; usage : %s",
				cmd.CommandPath(), n, len(args), cmd.UseLine())
		}
		return nil
	}
}

// exigerOptions refuses to run without the given flags, in French (cobra's
// MarkFlagRequired answers in English).
func exigerOptions(noms ...string) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, _ []string) error {
		var manquantes []string
		for _, n := range noms {
			if !cmd.Flags().Changed(n) {
				manquantes = append(manquantes, "--"+n)
			}
		}
		if len(manquantes) > 0 {
			return fmt.Errorf("option obligatoire manquante : %s ; « %s --help » décrit la commande",
				strings.Join(manquantes, ", "), cmd.CommandPath())
		}
		return nil
	}
}

// ecrireJSON writes v as indented JSON, the form of every command's --json
// report and of the rankings the CLI prints.
func ecrireJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

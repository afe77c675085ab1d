package report

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/param"
	"github.com/refreshlab/refreshlab/core/refresh"
	"github.com/refreshlab/refreshlab/core/schedule/schedulekind"
	"github.com/refreshlab/refreshlab/core/stat"
)

// methods writes the report's methods paragraph: the dataset, the
// setting of the run, every policy with its parameters and paper, how
// the numbers and intervals were computed, and the lab's version and the
// date.
func methods(r *Report, res *lab.Result, catalog []refresh.Descriptor) string {
	var b strings.Builder
	spec, d := res.Spec, res.Dataset
	kind := cmp.Or(spec.Kind, lab.KindRefresh)
	unit := cmp.Or(d.CycleUnit, "cycle")
	n := len(res.Policies)
	sentence := func(format string, args ...any) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, format, args...)
	}

	noun := map[string][2]string{
		lab.KindRefresh: {"refresh policy", "refresh policies"},
	}[kind]
	k, registered := lab.KindByID(kind)
	if registered {
		noun[0], noun[1] = k.Nouns()
	}
	where := fmt.Sprintf("%s: %s on %s", d.Name, count(d.Pages, "page", "pages"), count(d.Sites, "site", "sites"))
	if d.Cycles > 0 {
		where += fmt.Sprintf(", %s", count(d.Cycles, unit, unit+"s"))
		if l := durationText(d.CycleLength); l != "" && l != "1 "+unit {
			where += " of " + l
		}
	}
	if d.ChangeRate > 0 && d.Cycles > 0 {
		where += fmt.Sprintf(" (a page changed in %.1f%% of its %ss)", 100*d.ChangeRate, unit)
	}
	sentence("We compared %s on %s.", count(n, noun[0], noun[1]), where)
	if r.Log != nil && (r.Log.Name != "" || r.Log.SHA256 != "") {
		what := "a log"
		if r.Log.Name != "" {
			what = "the log " + r.Log.Name
		}
		if r.Log.SHA256 != "" {
			what += " (SHA-256 " + r.Log.SHA256 + ")"
		}
		sentence("The dataset was read from %s.", what)
	} else if d.Cite != "" {
		sentence("The dataset is from %s.", d.Cite)
	}

	switch kind {
	case lab.KindRefresh:
		sentence("Over %s, each %s a policy downloaded %s (its budget) and learnt, for each, whether the page had changed since its last download.",
			count(spec.Cycles, unit, unit+"s"), unit, count(spec.Budget, "page", "pages"))
	}
	_, streams := k.(lab.Streamer)
	if registered {
		if design := k.Design(res); design != "" {
			sentence("%s", design)
		}
	}
	if !registered || streams {
		sentence("Each ran %s with seed %d. Each repeat draws its own random stream (PCG seeded with the seed, the stream chosen by the policy's id and the repeat), and the dataset's changes are the same in every repeat.",
			count(spec.Repeats, "time", "times"), spec.Seed)
	}
	if slices.ContainsFunc(res.Policies, func(p lab.PolicyResult) bool { return p.Oracle }) {
		sentence("Policies marked as oracles read the truth, which no crawler can: they bound what is possible and are ranked, but are not the reference.")
	}
	descs := map[string]refresh.Descriptor{}
	for _, c := range catalog {
		if cmp.Or(c.Kind, lab.KindRefresh) == kind { // kinds may share an id, such as uniform
			descs[c.ID] = c
		}
	}
	var list []string
	for _, p := range res.Policies {
		s := p.Name
		var about []string
		if p.Label != "" {
			about = append(about, p.ID)
		}
		if ps := paramsText(p.Params); ps != "" {
			about = append(about, ps)
		}
		if paper := descs[p.ID].Paper; paper != "" {
			about = append(about, paper)
		}
		if len(about) > 0 {
			s += " (" + strings.Join(about, "; ") + ")"
		}
		list = append(list, s)
	}
	sentence("The policies: %s.", strings.Join(list, "; "))

	m := r.Metric
	over := ""
	switch kind {
	case lab.KindRefresh:
		over = fmt.Sprintf(", averaged over the %s of a repeat", count(spec.Cycles, unit, unit+"s"))
	case schedulekind.ID:
		over = ", averaged over the simulated time of a repeat"
	}
	sentence("We report %s (%s)%s, as its mean over the repeats with a 95%% Student-t interval, mean ± t(0.975, n − 1)·s/√n, and rank the policies by that mean (%s is better).",
		m.Name, lowerFirst(strings.TrimSuffix(m.Help, ".")), over, m.Better)
	refName := r.Reference
	for _, row := range r.Rows {
		if row.Key == r.Reference {
			refName = row.Name
		}
	}
	sentence("Each difference is a policy's mean minus that of %s, the reference.", refName)
	var paired, welch, withheld bool
	for _, row := range r.Rows {
		if row.Diff != nil {
			paired = paired || row.Diff.Paired
			welch = welch || !row.Diff.Paired
		}
		withheld = withheld || stat.Withheld(row.Value)
	}
	if welch && registered && !streams {
		sentence("These differences have Welch's 95%% interval for independent means, on the Welch–Satterthwaite degrees of freedom.")
	} else if welch {
		sentence("Repeat r of one policy and repeat r of another share no random number, so pairing them would remove no variance: these differences have Welch's 95%% interval for independent means, on the Welch–Satterthwaite degrees of freedom.")
	}
	if paired {
		sentence("Labelled copies of one policy draw the same random streams, so their repeats are pairs: their differences have the paired t interval of the per-repeat differences, on n − 1 degrees of freedom.")
	}
	if withheld {
		sentence("A median that came out the same in every repeat has no interval, and neither has a difference to or from it: its zero spread across repeats says nothing of how far its expectation may lie.")
	}
	sentence("Run with Refresh Lab %s on %s.", r.Version, r.Date)
	return b.String()
}

// lowerFirst lowers the first letter of a sentence that goes inside
// another, unless the word is an acronym or a name in capitals ("MAD").
func lowerFirst(s string) string {
	r := []rune(s)
	if len(r) > 1 && unicode.IsUpper(r[0]) && unicode.IsLower(r[1]) {
		r[0] = unicode.ToLower(r[0])
	}
	return string(r)
}

// paramsText writes a policy's parameters as name = value, by name.
func paramsText(v param.Values) string {
	keys := make([]string, 0, len(v))
	for k := range v {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s = %v", k, v[k])
	}
	return strings.Join(parts, ", ")
}

// durationText writes a length in seconds as whole weeks, days, hours or
// minutes when it is one, else in seconds; "" for none.
func durationText(secs float64) string {
	if !(secs > 0) {
		return ""
	}
	for _, u := range []struct {
		s    float64
		name string
	}{{604800, "week"}, {86400, "day"}, {3600, "hour"}, {60, "minute"}} {
		k := secs / u.s
		if k >= 1 && math.Abs(k-math.Round(k)) < 0.01 {
			return count(int(math.Round(k)), u.name, u.name+"s")
		}
	}
	return fmt.Sprintf("%.0f seconds", secs)
}

package lesson

import "slices"

// Track is a group of lessons on the index, in the order they are taught.
type Track struct {
	ID    string
	Title string
	About string // one sentence for the index
}

// Tracks are the index's groups; a lesson names its own with track:. A
// track with no lessons yet is shown as coming.
var Tracks = []Track{
	{"choosing", "Choosing what to refresh", "A crawler cannot download every page every cycle: which pages should it spend its budget on?"},
	{"estimating", "Estimating change", "A crawler sees only whether a page changed between two visits: how fast does it change?"},
	{"schedules", "Schedules", "Knowing how fast each page changes, how often should each be visited?"},
	{"monitoring", "Monitoring", "Watching a crawl in production: is the copy of the web still fresh, and when did it stop being so?"},
}

// trackIDs lists the tracks' ids, for errors.
func trackIDs() []string {
	var ids []string
	for _, t := range Tracks {
		ids = append(ids, t.ID)
	}
	return ids
}

// Reveal sets, on every policies control of every lesson, the policies
// taught so far: those run by the lesson's spec and by the specs of every
// lesson before it (ls is in the lessons' order), in the control's order
// (the catalog's). The page shows those and puts the rest behind "More
// policies", so a first lesson does not offer eleven policies it has not
// explained.
func Reveal(ls []*Lesson) {
	seen := map[string]bool{}
	for _, x := range ls {
		for _, p := range x.Spec.Policies {
			seen[p.ID] = true
		}
		for i := range x.Controls {
			c := &x.Controls[i]
			if c.Type != "policies" || c.Resolved == nil {
				continue
			}
			opts := c.Options
			if len(opts) == 0 {
				opts = c.Resolved.Options
			}
			c.Taught = slices.DeleteFunc(slices.Clone(opts), func(id string) bool { return !seen[id] })
		}
	}
}

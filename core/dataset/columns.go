package dataset

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// Layout says how to find a log's columns: the separator of a CSV log,
// and which column plays which role when the header names them otherwise
// than the reader expects.
type Layout struct {
	// Sep is a CSV log's field separator: ',' when 0 (';', tab and '|'
	// are the usual others). The line formats (CDX, CDXJ, JSON lines)
	// have none to set.
	Sep rune
	// Columns maps roles to the names (any case) of the columns that play
	// them, for a log whose header names them otherwise: page, url, site,
	// time, changed and hash in crawl logs (and status and mime in the
	// capture formats); page, url, site, time and event in change events.
	// A role left out keeps its usual names. ParseColumns reads the
	// API's form of it.
	Columns map[string]string
}

// OptionError is a reading option that does not fit the format: a column
// map naming a role the format has not, a separator for a format without
// one. Option names the option as the API does ("columns", "sep").
type OptionError struct {
	Option string
	Err    error
}

func (e *OptionError) Error() string { return "dataset: " + e.Option + ": " + e.Err.Error() }
func (e *OptionError) Unwrap() error { return e.Err }

// ParseColumns reads a column map written as the API takes it:
// role=name pairs separated by commas, such as
// "page=url,site=host,time=crawled_at,changed=content_changed". Roles are
// lower-cased and names trimmed; which roles a format has is checked when
// a log is read.
func ParseColumns(s string) (map[string]string, error) {
	m := map[string]string{}
	if strings.TrimSpace(s) == "" {
		return m, nil
	}
	for _, pair := range strings.Split(s, ",") {
		r, name, ok := strings.Cut(pair, "=")
		r, name = strings.ToLower(strings.TrimSpace(r)), strings.TrimSpace(name)
		switch {
		case !ok || r == "" || name == "":
			return nil, fmt.Errorf("%q: expected role=column, such as time=crawled_at", strings.TrimSpace(pair))
		case m[r] != "":
			return nil, fmt.Errorf("role %q mapped twice (to %q and %q)", r, m[r], name)
		}
		m[r] = name
	}
	return m, nil
}

// role is a part a column plays in a log.
type role struct {
	name  string   // its name in a column map; "" for columns a map cannot name (the Open Terms Archive layout's)
	names []string // column names read as it without a map, lower case
	need  string   // "required", "optional", or the choice it is part of ("page or url")
}

// The roles of the formats' columns.
var (
	rolePage    = role{"page", []string{"page"}, "page or url"}
	roleURL     = role{"url", []string{"url"}, "page or url"}
	roleSite    = role{"site", []string{"site"}, "optional"}
	roleTime    = role{"time", []string{"time", "crawl_time", "timestamp", "ts", "crawled_at"}, "required"}
	roleChanged = role{"changed", []string{"changed"}, "changed or hash"}
	roleHash    = role{"hash", []string{"hash", "content_hash", "digest", "checksum"}, "changed or hash"}
	roleEvent   = role{"event", []string{"event"}, "optional"}

	// Captures (CDX, CDXJ, JSON lines) also key pages by their SURT form
	// and name the URL and the other fields as the CDX server does.
	roleCapturePage = role{"page", []string{"page", "urlkey"}, "page or url"}
	roleCaptureURL  = role{"url", []string{"url", "original"}, "page or url"}
	roleStatus      = role{"status", []string{"status", "statuscode"}, "optional"}
	roleMime        = role{"mime", []string{"mime", "mimetype"}, "optional"}

	// The Open Terms Archive layout of change events.
	roleOTAService = role{"", []string{"service"}, ""}
	roleOTADocType = role{"", []string{"document_type"}, ""}
	roleOTAUnix    = role{"", []string{"ts_unix"}, ""}
	roleOTAUTC     = role{"", []string{"ts_utc"}, ""}
)

// Each format's roles, in the order of the reader's columns call.
var (
	crawlRoles   = []role{rolePage, roleURL, roleSite, roleTime, roleChanged, roleHash}
	captureRoles = []role{roleCapturePage, roleCaptureURL, roleSite, roleTime, roleChanged, roleHash, roleStatus, roleMime}
	eventRoles   = []role{rolePage, roleURL, roleSite, roleTime, roleEvent, roleOTAService, roleOTADocType, roleOTAUnix, roleOTAUTC}
)

// commonNames lists, for each role, column names (normalised by
// normName) that often mean it in logs other tools write. They are only
// guesses, proposed by the upload page's column-mapping step (Preview),
// never read without a map: "modified" may be a flag or a date, "id" a
// page or a row.
var commonNames = map[string][]string{
	"page":    {"page_id", "pageid", "id", "doc_id", "document_id", "document", "key", "urlkey", "surt"},
	"url":     {"uri", "link", "href", "address", "location", "loc", "page_url", "target_uri", "warc_target_uri", "original", "original_url", "canonical_url"},
	"site":    {"host", "hostname", "domain", "website", "site_name", "netloc", "service"},
	"time":    {"date", "datetime", "date_time", "crawled", "crawl_date", "crawled_on", "fetched_at", "fetch_time", "fetch_date", "fetched", "visited_at", "visit_time", "checked_at", "captured_at", "capture_time", "observed_at", "retrieved_at", "last_crawled", "last_checked", "ts_utc", "ts_unix", "time_utc", "unix_time", "epoch", "recorded_at", "created_at", "when"},
	"changed": {"content_changed", "is_changed", "has_changed", "change", "changed_flag", "modified", "is_modified", "was_modified", "updated", "is_updated", "diff", "different"},
	"hash":    {"sha1", "sha_1", "sha256", "sha_256", "md5", "payload_digest", "content_digest", "content_md5", "content_sha1", "body_hash", "text_hash", "etag", "last_modified", "lastmod", "fingerprint", "simhash", "signature"},
	"event":   {"event_type", "type", "kind", "action", "change_type"},
	"status":  {"status_code", "http_status", "response_code", "code"},
	"mime":    {"content_type", "mime_type", "media_type", "type"},
}

// normName lower-cases a column name and joins its words with '_':
// "Crawled At", "crawled-at" and "crawledAt"'s neighbour "crawled_at" all
// become "crawled_at".
func normName(s string) string {
	var b strings.Builder
	gap := false
	for _, r := range strings.TrimSpace(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if gap && b.Len() > 0 {
				b.WriteByte('_')
			}
			gap = false
			b.WriteRune(unicode.ToLower(r))
		} else {
			gap = true
		}
	}
	return b.String()
}

// checkColumns checks that a column map names only roles of the format
// (whose roles are given), each to a different column name.
func checkColumns(m map[string]string, roles []role, format string) error {
	var names []string
	for _, r := range roles {
		if r.name != "" && !slices.Contains(names, r.name) {
			names = append(names, r.name)
		}
	}
	for r := range m {
		if !slices.Contains(names, r) {
			return &OptionError{"columns", fmt.Errorf("%s logs have no role %q (their roles: %s)", format, r, strings.Join(names, ", "))}
		}
	}
	for r, name := range m {
		for r2, name2 := range m {
			if r < r2 && strings.EqualFold(name, name2) {
				return &OptionError{"columns", fmt.Errorf("roles %s and %s are both mapped to column %q", min(r, r2), max(r, r2), name)}
			}
		}
	}
	return nil
}

// checkLayout checks a layout's options against the format.
func checkLayout(l Layout, roles []role, format string) error {
	if l.Sep != 0 {
		if format != FormatCrawlLog && format != FormatChangeEvents && format != FormatRates {
			return &OptionError{"sep", fmt.Errorf("%s files have no separator to choose (it is for the CSV formats, %s and %s)", format, FormatCrawlLog, FormatChangeEvents)}
		}
		if l.Sep == '"' || l.Sep == '#' || l.Sep == '\r' || l.Sep == '\n' || l.Sep == 0xFFFD || !unicode.IsPrint(l.Sep) && l.Sep != '\t' {
			return &OptionError{"sep", errors.New(`expected a separator such as ",", ";", "|" or a tab`)}
		}
	}
	return checkColumns(l.Columns, roles, format)
}

// Preview shows the head of a log whose header lacks a column the format
// needs, so that the researcher can say which column plays which role
// (a column map): the header, the first rows, and for each role the
// column the reader took or one whose name often means it.
type Preview struct {
	Header []string      `json:"header"` // the header's names, trimmed
	Rows   [][]string    `json:"rows"`   // the first rows after it (at most previewRows), as read
	Roles  []PreviewRole `json:"roles"`  // the roles a column map can name, in order
}

// PreviewRole is one role in a Preview.
type PreviewRole struct {
	Role    string `json:"role"`    // as a column map names it
	Need    string `json:"need"`    // "required", "optional", or the choice it is part of ("changed or hash")
	Column  int    `json:"column"`  // the column read as it (0-based), or -1
	Guessed bool   `json:"guessed"` // Column is a guess from its name, not read as it without a map
}

// previewRows is the number of rows a Preview shows.
const previewRows = 5

// guess fills in, for the roles of p without a column, a column not used
// by another role whose name (normalised) is one of the role's names or
// common names.
func (p *Preview) guess(roles []role) {
	taken := make([]bool, len(p.Header))
	for _, r := range p.Roles {
		if r.Column >= 0 {
			taken[r.Column] = true
		}
	}
	norm := make([]string, len(p.Header))
	for i, h := range p.Header {
		norm[i] = normName(h)
	}
	for k := range p.Roles {
		pr := &p.Roles[k]
		if pr.Column >= 0 {
			continue
		}
		i := slices.IndexFunc(roles, func(r role) bool { return r.name == pr.Role })
		for _, name := range append(slices.Clip(roles[i].names), commonNames[pr.Role]...) {
			if c := slices.IndexFunc(norm, func(n string) bool { return n == name }); c >= 0 && !taken[c] {
				pr.Column, pr.Guessed, taken[c] = c, true, true
				break
			}
		}
	}
}

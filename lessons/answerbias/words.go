package answerbias

import (
	"regexp"
	"strings"
	"unicode"
)

// Content words are what a phrase is compared by: lower case, Markdown
// and punctuation gone, function words ("the", "its", "is") left out, and
// a light stemming so that "conflicts" matches "conflict" and "retries"
// "retry". Identifiers are split where a reader splits them:
// SetOwnerUntilItWorks reads as set owner until it works, data.owner as
// data owner. Numbers stay: "RV 101" is as telling as any word.

// stopWords are left out of content words.
var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an the and or but nor of to in on at by for from with into onto
		out over under about after before between through during without within than then
		is are was were be been being am do does did done has have had having will would shall should
		can could may might must it its it's itself this that these those there here which who whom whose
		what when where why how all any both each every few more most other some such no not only own
		same so too very just also as if because while until once again ever yet still
		i you your yours he him his she her we us our they them their one ones s t`) {
		stopWords[w] = true
	}
	// "no", "not", "same", "again", "until" and "every" are left out too:
	// they carry the sense of many options, but a phrase of three content
	// words is a match of what the option is about, and they would only
	// pad it. The check of what a title names reads the raw words.
}

var (
	camel    = regexp.MustCompile(`([a-z0-9])([A-Z])`)
	wordChar = func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	// subword splits an identifier where a reader does: an acronym, a
	// capitalised word, a lower-case run, a number.
	subword = regexp.MustCompile(`[A-Z]+[a-z]*[0-9]*|[a-z]+[0-9]*|[0-9]+[a-z]*`)
)

// token is one content word and where its surface form is in the text.
type token struct {
	word       string
	start, end int
}

// tokens are the content words of a text, with their places: each run of
// letters and digits ("c's" is c and s, data.owner is data and owner),
// identifiers split into their words (RetryOnConflict: retry, on,
// conflict; an acronym stays whole), lower case, function words left out,
// stemmed.
func tokens(text string) []token {
	var out []token
	start := -1
	flush := func(end int) {
		if start < 0 {
			return
		}
		run := text[start:end]
		for _, loc := range subword.FindAllStringIndex(run, -1) {
			w := strings.ToLower(run[loc[0]:loc[1]])
			if !stopWords[w] {
				out = append(out, token{word: stem(w), start: start + loc[0], end: start + loc[1]})
			}
		}
		start = -1
	}
	for i, r := range text {
		if wordChar(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		flush(i)
	}
	flush(len(text))
	return out
}

// Words returns the content words of a text, in order.
func Words(text string) []string {
	ts := tokens(text)
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.word
	}
	return out
}

// stem strips the endings that make one word two: plurals and third
// persons ("conflicts", "retries", "patches"), "-ed" and "-ing" forms, and
// a final e, so that "erase", "erased" and "erasing" are one word.
func stem(w string) string {
	if len(w) <= 3 || strings.IndexFunc(w, unicode.IsDigit) >= 0 {
		return w
	}
	w = strip(w)
	if len(w) > 4 && strings.HasSuffix(w, "e") {
		w = w[:len(w)-1]
	}
	return w
}

func strip(w string) string {
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "ied") && len(w) > 4:
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "xes"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
		return w
	case strings.HasSuffix(w, "s"):
		return w[:len(w)-1]
	case strings.HasSuffix(w, "ing") && len(w) > 5:
		return w[:len(w)-3]
	case strings.HasSuffix(w, "ed") && len(w) > 4:
		return w[:len(w)-2]
	}
	return w
}

// sharedRun returns the longest run (at least n content words) of the
// option's tokens that also occurs, word for word, among source's content
// words: as stems (to compare with other options) and as text writes it;
// "" when none.
func sharedRun(text string, option []token, source []string, n int) (run, surface string) {
	src := " " + strings.Join(source, " ") + " "
	words := make([]string, len(option))
	for i, t := range option {
		words[i] = t.word
	}
	best := 0
	for i := 0; i+n <= len(words); i++ {
		for j := len(words); j-i >= n && j-i > best; j-- {
			if r := strings.Join(words[i:j], " "); strings.Contains(src, " "+r+" ") {
				run, surface, best = r, text[option[i].start:option[j-1].end], j-i
				break
			}
		}
	}
	return run, surface
}

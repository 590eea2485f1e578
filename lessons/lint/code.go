package lint

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/snippets"
	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// A race must play exactly the code shown beside it, request for request:
// a snippet declares the strategy it is (`// strategy: read=live
// retry=default` inside its region) and checkCode compares that with the
// programs the race runs. A snippet that loops (a retry helper or a bare
// `for {`) must declare one: those are the ones where "a GET on every
// attempt" and "the Lister first, a GET on retries" look alike in a
// timeline and differ in the request count.

// Code ties every built-in snippet a step or option shows beside a race to
// the controllers that race runs (field names the step, "steps[3]").
func Code(p *lessons.Pack, l *lessons.Lesson, s lessons.Step, field string) []error {
	var errs []error
	fail := func(line int, f, msg string) {
		errs = append(errs, &lessons.Error{File: l.File, Line: line, Field: f, Msg: msg})
	}
	if s.Race == nil {
		return nil
	}
	if s.Code != "" && s.Kind != lessons.Choose {
		sc, err := p.ScenarioFor(s, nil)
		if err == nil {
			if msg := codeMatches(s.Code, sc.Controllers); msg != "" {
				fail(s.Line, field+".code", msg)
			}
		}
	}
	for k, opt := range s.Options {
		if opt.Code == "" || opt.Strategy == nil {
			continue
		}
		sc, err := p.ScenarioFor(s, &opt)
		if err != nil {
			continue
		}
		var applied []scenario.Controller
		for _, c := range sc.Controllers {
			if len(s.Race.Apply) == 0 || slices.Contains(s.Race.Apply, c.Name) {
				applied = append(applied, c)
			}
		}
		// Every controller the strategy changes runs the code shown.
		for _, c := range applied {
			if msg := codeMatches(opt.Code, []scenario.Controller{c}); msg != "" {
				fail(opt.Line, fmt.Sprintf("%s.options[%d].code", field, k), msg)
				break
			}
		}
	}
	return errs
}

// codeMatches returns "" when some controller runs the strategy the
// snippet declares (or the snippet is a pack file, or declares nothing and
// does not loop), else what differs.
func codeMatches(name string, ctrls []scenario.Controller) string {
	src, err := snippets.Get(name)
	if err != nil {
		return "" // a pack's own file: nothing declared to compare
	}
	decl, ok, err := snippets.Strategy(name)
	if err != nil {
		return err.Error()
	}
	if !ok {
		if loops(src) {
			return fmt.Sprintf("snippet %s retries but declares no strategy: add a `// strategy:` line to its region so the race can be checked against it", name)
		}
		return ""
	}
	var diffs []string
	for _, c := range ctrls {
		d := strategyDiff(decl, c.Program)
		if d == "" {
			return ""
		}
		diffs = append(diffs, c.Name+": "+d)
	}
	return fmt.Sprintf("the race does not play the code shown: snippet %s is %s, but %s", name, declString(decl), strings.Join(diffs, "; "))
}

// loops reports whether the code (comments aside) has a retry loop.
func loops(src string) bool {
	for _, l := range strings.Split(src, "\n") {
		code, _, _ := strings.Cut(l, "//")
		if strings.Contains(code, "retry.RetryOnConflict") || strings.Contains(code, "retry.OnError") || strings.Contains(code, "for {") {
			return true
		}
	}
	return false
}

func declString(decl map[string]string) string {
	keys := make([]string, 0, len(decl))
	for k := range decl {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []string
	for _, k := range keys {
		out = append(out, k+"="+decl[k])
	}
	return strings.Join(out, " ")
}

// strategyDiff compares a declaration with a program; "" when they agree.
func strategyDiff(decl map[string]string, p controller.Program) string {
	var d []string
	for _, k := range []string{"write", "read", "withRV", "test", "force", "retry"} {
		want, ok := decl[k]
		if !ok {
			continue
		}
		var got string
		switch k {
		case "write":
			got = string(p.Write)
		case "read":
			got = string(p.Read)
		case "withRV":
			got = strconv.FormatBool(p.WithRV)
		case "force":
			got = strconv.FormatBool(p.Force)
		case "test":
			got = string(p.Test)
			if got == "" {
				got = "none"
			}
		case "retry":
			got = retryName(p.Retry)
		}
		if got != want {
			d = append(d, fmt.Sprintf("%s=%s", k, got))
		}
	}
	return strings.Join(d, " ")
}

// retryName names a retry policy by its preset, or describes it.
func retryName(r controller.RetryPolicy) string {
	if n, ok := controller.RetryPresetOf(r); ok {
		return n
	}
	return fmt.Sprintf("%+v", r)
}

package verdict

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/conflictlab/conflictlab/sim/race"
)

// Env names the file conflictlab asks the exercise's test to write the
// verdict to.
const Env = "CONFLICTLAB_VERDICT"

// MaxVerdictBytes bounds a verdict file conflictlab reads back: the
// losing run of an exercise's race is a few hundred kilobytes at most.
const MaxVerdictBytes = 16 << 20

// Causes carries the loss causes of an outcome, which race.Outcome's own
// JSON leaves out (sim/report words them): one per entry of Lost and of
// Overwritten, in order.
type Causes struct {
	Lost        []race.LossCause `json:"lost,omitempty"`
	Overwritten []race.LossCause `json:"overwritten,omitempty"`
}

// CausesOf are o's loss causes, for Verdict.Causes.
func CausesOf(o *race.Outcome) *Causes {
	c := &Causes{}
	for _, l := range o.Lost {
		c.Lost = append(c.Lost, l.Cause)
	}
	for _, l := range o.Overwritten {
		c.Overwritten = append(c.Overwritten, l.Cause)
	}
	return c
}

// Encode writes the verdict as JSON.
func Encode(v *Verdict) ([]byte, error) { return json.Marshal(v) }

// Decode reads a verdict Encode wrote, with its outcome as the simulator
// made it: the loss causes put back, and numbers in objects as
// Kubernetes' unstructured objects hold them (int64 when whole, float64
// otherwise).
func Decode(data []byte) (*Verdict, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v Verdict
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("not a verdict: %w", err)
	}
	if o := v.Outcome; o != nil {
		o.Final = numbers(o.Final).(map[string]any)
		for i := range o.Versions {
			if o.Versions[i].Object != nil {
				o.Versions[i].Object = numbers(o.Versions[i].Object).(map[string]any)
			}
			for j := range o.Versions[i].Changes {
				c := &o.Versions[i].Changes[j]
				c.Old, c.New = numbers(c.Old), numbers(c.New)
			}
		}
		for i := range o.Lost {
			o.Lost[i].Final = numbers(o.Lost[i].Final)
		}
		for i := range o.Overwritten {
			o.Overwritten[i].Final = numbers(o.Overwritten[i].Final)
		}
		if c := v.Causes; c != nil {
			for i := range o.Lost {
				if i < len(c.Lost) {
					o.Lost[i].Cause = c.Lost[i]
				}
			}
			for i := range o.Overwritten {
				if i < len(c.Overwritten) {
					o.Overwritten[i].Cause = c.Overwritten[i]
				}
			}
		}
	}
	return &v, nil
}

// numbers turns the json.Numbers UseNumber leaves into int64 or float64.
func numbers(v any) any {
	switch x := v.(type) {
	case map[string]any:
		if x == nil {
			return x
		}
		for k, e := range x {
			x[k] = numbers(e)
		}
		return x
	case []any:
		for i, e := range x {
			x[i] = numbers(e)
		}
		return x
	case json.Number:
		if n, err := x.Int64(); err == nil {
			return n
		}
		f, _ := x.Float64()
		return f
	}
	return v
}

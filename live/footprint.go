package live

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/conflictlab/conflictlab/sim/api"
)

// Footprint is what one live run put on a cluster, each thing with the
// uid the server gave it. It is the proof the cleanup works from: a delete
// carries the uid as a precondition, so it can only ever remove the very
// object this run created, never one that took its name since.
//
// With Options.Journal set, the footprint is written to
// JOURNAL/RUNID.json before each request that may create something (the
// thing is listed as intended, without uid) and after (with its uid), and
// removed once the cleanup has deleted everything. A run that was killed
// outright (SIGKILL, power loss) leaves its record behind for
// `conflictlab cleanup`.
type Footprint struct {
	RunID   string `json:"runID"`
	Server  string `json:"server"`
	Context string `json:"context"`
	Started string `json:"started"`
	// Namespace is where the run works; NamespaceUID is set when the run
	// created it (and so deletes it).
	Namespace    string `json:"namespace"`
	NamespaceUID string `json:"namespaceUID,omitempty"`
	// CRDUID is set when the run created the Widget CRD.
	CRDUID  string  `json:"crdUID,omitempty"`
	Objects []Owned `json:"objects,omitempty"`
}

// Owned is one object a run created (UID set) or was about to create
// (UID empty: the request was sent, its answer not yet recorded).
type Owned struct {
	Kind api.Kind `json:"kind"`
	Name string   `json:"name"`
	// GenerateName is the prefix of a create the server names: with no
	// Name, the answer never arrived and the run's label finds the object.
	GenerateName string `json:"generateName,omitempty"`
	UID          string `json:"uid,omitempty"`
}

// Empty reports whether the run left nothing to delete.
func (f Footprint) Empty() bool {
	return f.NamespaceUID == "" && f.CRDUID == "" && len(f.Objects) == 0
}

// Describe lists what the footprint holds, one thing a line, with the
// kubectl command that removes it (for a run whose cleanup failed).
func (f *Footprint) Describe() []string {
	var out []string
	if f.NamespaceUID != "" {
		out = append(out, fmt.Sprintf("namespace %s (uid %s) — kubectl --context %q delete namespace %s",
			f.Namespace, f.NamespaceUID, f.Context, f.Namespace))
	}
	for _, o := range f.Objects {
		if f.NamespaceUID != "" && o.UID != "" {
			continue // goes with its namespace
		}
		info, _ := api.Lookup(o.Kind)
		if o.Name == "" {
			out = append(out, fmt.Sprintf("%s %s/%s* (a generated name, not recorded: the run ended before the answer) — kubectl --context %q -n %s delete %s -l %s=%s",
				o.Kind, f.Namespace, o.GenerateName, f.Context, f.Namespace, info.Resource.String(), RunLabel, f.RunID))
			continue
		}
		uid := o.UID
		if uid == "" {
			uid = "not recorded: the run ended before the answer"
		}
		out = append(out, fmt.Sprintf("%s %s/%s (uid %s) — kubectl --context %q -n %s delete %s %s",
			o.Kind, f.Namespace, o.Name, uid, f.Context, f.Namespace, info.Resource.String(), o.Name))
	}
	if f.CRDUID != "" {
		out = append(out, fmt.Sprintf("CRD %s (uid %s) — kubectl --context %q delete crd %s",
			WidgetCRDName, f.CRDUID, f.Context, WidgetCRDName))
	}
	return out
}

// intend notes a create about to be sent. A name the run created before
// (and deleted during the race) gets an entry of its own: the object
// created again has another uid.
func (f *Footprint) intend(k api.Kind, name string) {
	for _, o := range f.Objects {
		if o.Kind == k && o.Name == name && o.UID == "" {
			return
		}
	}
	f.Objects = append(f.Objects, Owned{Kind: k, Name: name})
}

func (f *Footprint) created(k api.Kind, name, uid string) {
	for i := len(f.Objects) - 1; i >= 0; i-- {
		if f.Objects[i].Kind == k && f.Objects[i].Name == name && f.Objects[i].UID == "" {
			f.Objects[i].UID = uid
			return
		}
	}
	f.Objects = append(f.Objects, Owned{Kind: k, Name: name, UID: uid})
}

// forget drops an intended object whose create did not happen.
func (f *Footprint) forget(k api.Kind, name string) {
	for i, o := range f.Objects {
		if o.Kind == k && o.Name == name && o.UID == "" {
			f.Objects = append(f.Objects[:i], f.Objects[i+1:]...)
			return
		}
	}
}

// Journal is a folder of footprints, one file a run.
type Journal string

// JournalIn is the journal in an application state folder (beside the
// progress file): STATE/live-runs.
func JournalIn(stateDir string) Journal { return Journal(filepath.Join(stateDir, "live-runs")) }

func (j Journal) path(id string) string { return filepath.Join(string(j), id+".json") }

// save writes a footprint atomically (temp file + rename).
func (j Journal) save(f *Footprint) error {
	if j == "" {
		return nil
	}
	if err := os.MkdirAll(string(j), 0o700); err != nil {
		return err
	}
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(string(j), "."+f.RunID+"-*.tmp")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), j.path(f.RunID))
}

func (j Journal) remove(id string) error {
	if j == "" {
		return nil
	}
	err := os.Remove(j.path(id))
	if os.IsNotExist(err) {
		return nil
	}
	return err
}

// maxFootprint bounds a journal file: a run creates a handful of objects.
const maxFootprint = 1 << 20

// Load reads every footprint in the journal, oldest first. A file that is
// not a footprint is reported, not deleted.
func (j Journal) Load() ([]*Footprint, []error) {
	entries, err := os.ReadDir(string(j))
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, []error{err}
	}
	var out []*Footprint
	var errs []error
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		p := filepath.Join(string(j), e.Name())
		if !e.Type().IsRegular() {
			errs = append(errs, fmt.Errorf("%s: not a regular file, skipped", p))
			continue
		}
		if info, err := e.Info(); err != nil || info.Size() > maxFootprint {
			errs = append(errs, fmt.Errorf("%s: larger than %d bytes, skipped", p, maxFootprint))
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		f := &Footprint{}
		if err := json.Unmarshal(data, f); err != nil || f.RunID+".json" != e.Name() {
			errs = append(errs, fmt.Errorf("%s: not a run record, skipped", p))
			continue
		}
		out = append(out, f)
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Started < out[b].Started })
	return out, errs
}

func now() string { return time.Now().UTC().Format(time.RFC3339) }

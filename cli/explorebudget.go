package cli

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/conflictlab/conflictlab/budget"
	"github.com/conflictlab/conflictlab/ui"
)

// exploreFlags are the sandbox explorer's bounds in the tutorial and the
// sandbox (`e`): the same defaults as conflictlab explore.
type exploreFlags struct {
	timeout time.Duration
	memory  string
}

func addExploreFlags(cmd *cobra.Command) *exploreFlags {
	f := &exploreFlags{}
	cmd.Flags().DurationVar(&f.timeout, "explore-timeout", DefaultExploreTimeout, "the sandbox's explorer (e) stops after this long (0: no limit)")
	cmd.Flags().StringVar(&f.memory, "explore-memory", budget.Bytes(DefaultExploreMemory), "the sandbox's explorer (e) stops once the heap has grown by this much (0: no limit)")
	return f
}

// apply sets the bounds in o, with how to lift them.
func (f *exploreFlags) apply(o *ui.Options, command string) error {
	if f.timeout < 0 {
		return usageErr(fmt.Errorf("--explore-timeout must not be negative"))
	}
	mem, err := budget.ParseBytes(f.memory)
	if err != nil {
		return usageErr(fmt.Errorf("--explore-memory: %w", err))
	}
	o.SandboxEnv.Explore.Timeout, o.SandboxEnv.Explore.MaxMemory = f.timeout, mem
	o.SandboxEnv.Explore.Lift = command + " --explore-timeout 10m --explore-memory 4GiB lifts it; 0 removes a bound"
	return nil
}

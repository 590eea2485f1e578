package cli

import (
	"github.com/spf13/cobra"
)

// exercisesScreen opens the tutorial on the exercises' screen, working in
// the workspace ws.
func exercisesScreen(_ *cobra.Command, env Env, ws string) error {
	o := terminalOptions(env)
	o.OpenExercises, o.ExercisesDir = true, ws
	return tuiExit(env.screen()(o))
}

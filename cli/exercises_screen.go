package cli

import (
	"errors"

	"github.com/spf13/cobra"
)

func exercisesScreen(cmd *cobra.Command, env Env, ws string) error {
	return errors.New("TODO")
}

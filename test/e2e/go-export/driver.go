// Runs the Program of a Go file written by notify-export (copied beside this file, its main
// renamed) as the inline program of a stack, for test/e2e/exportLanguages.test.ts:
//
//	notify-export-program <up|up-refresh|preview|preview-refresh>
//
// with the settings as JSON on stdin (workDir, pulumiRoot, projectName, config). It writes one
// JSON object with what the operation reported (changes; per resource the operation and the
// changed keys, for previews) on stdout; the CLI's own output goes to stderr.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/events"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
)

type settings struct {
	WorkDir     string                      `json:"workDir"`
	PulumiRoot  string                      `json:"pulumiRoot"`
	ProjectName string                      `json:"projectName"`
	Config      map[string]auto.ConfigValue `json:"config"`
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
	os.Exit(1)
}

func main() {
	op := os.Args[1]
	var s settings
	if err := json.NewDecoder(os.Stdin).Decode(&s); err != nil {
		fail("settings on stdin: %v", err)
	}
	ctx := context.Background()
	cmd, err := auto.NewPulumiCommand(&auto.PulumiCommandOptions{Root: s.PulumiRoot, SkipVersionCheck: true})
	if err != nil {
		fail("the Pulumi CLI: %v", err)
	}
	stack, err := auto.UpsertStackInlineSource(ctx, "test", s.ProjectName, Program, auto.WorkDir(s.WorkDir), auto.Pulumi(cmd))
	if err != nil {
		fail("stack: %v", err)
	}
	if err := stack.SetAllConfig(ctx, auto.ConfigMap(s.Config)); err != nil {
		fail("config: %v", err)
	}
	out := map[string]any{}
	switch op {
	case "up", "up-refresh":
		opts := []optup.Option{optup.ProgressStreams(os.Stderr), optup.ErrorProgressStreams(os.Stderr)}
		if op == "up-refresh" {
			opts = append(opts, optup.Refresh())
		}
		res, err := stack.Up(ctx, opts...)
		if err != nil {
			fail("up: %v", err)
		}
		out["changes"] = res.Summary.ResourceChanges
	case "preview", "preview-refresh":
		ch := make(chan events.EngineEvent)
		diffs := map[string]string{}
		done := make(chan struct{})
		go func() {
			defer close(done)
			for e := range ch {
				if e.ResourcePreEvent == nil {
					continue
				}
				m := e.ResourcePreEvent.Metadata
				if m.Op == apitype.OpSame || m.Op == apitype.OpRefresh || m.Type == "pulumi:pulumi:Stack" || strings.HasPrefix(m.Type, "pulumi:providers:") {
					continue
				}
				diffs[m.URN[strings.LastIndex(m.URN, "::")+2:]] = string(m.Op)
			}
		}()
		opts := []optpreview.Option{optpreview.ProgressStreams(os.Stderr), optpreview.ErrorProgressStreams(os.Stderr), optpreview.EventStreams(ch)}
		if op == "preview" {
			opts = append(opts, optpreview.ExpectNoChanges())
		} else {
			opts = append(opts, optpreview.Refresh())
		}
		res, err := stack.Preview(ctx, opts...)
		<-done
		if err != nil {
			fail("preview: %v", err)
		}
		out["changes"] = res.ChangeSummary
		out["diffs"] = diffs
	default:
		fail("unknown operation %s", op)
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		fail("result: %v", err)
	}
}

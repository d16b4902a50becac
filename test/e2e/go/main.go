// A Go Automation API inline program on the generated Go SDK (sdk/go, package notify), driven by
// test/e2e/go.test.ts, which builds it with `go build` and runs the binary:
//
//	notify-go-program <up|up-refresh|preview|preview-refresh|destroy>
//
// It reads its settings as JSON on stdin (workDir: a project directory whose Pulumi.yaml the test
// wrote, with the backend and `plugins.providers`; pulumiRoot: the directory holding bin/pulumi;
// config: the stack config; second: the address and API key of a second environment, for an
// explicit provider instance) and writes one JSON object with what the operation reported on
// stdout, with `warnings`, the engine's warning diagnostics of the operation. The CLI's own output
// goes to stderr. The environment (PULUMI_HOME, backend, passphrase, PATH with Node for the plugin)
// is the caller's.
//
// Beside the integrations, workflow, translation, credentials, context, domain and layout, the
// program declares the kinds of issue #38, each referring to the others by their outputs as a user
// writes them: a subscriber with its credentials and preferences, a topic and a subscription to it,
// the context's shared Slack workspace (its token the stack config secret notify-go:slackToken) and
// an endpoint through it, and an agent linked to the Slack integration that the domain routes an
// address to; it calls each one's read function and exports the result.
//
// There is no Go language host: the program runs in this process (auto.UpsertStackInlineSource).
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/pulumi-notify/pulumi-notify/sdk/go/notify"
	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/events"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

// Secrets the program declares; test/e2e/go.test.ts checks that none is stored or printed in clear.
const (
	SendgridKey = "SG.go-secret-sendgrid-key"
	SlackHook   = "https://hooks.slack.example/services/T000/B000/go-hook"
	SecondKey   = "SG.go-second-tenant-sendgrid-key"
	OncallHook  = "https://hooks.slack.example/services/T000/B000/go-oncall-hook"
)

type settings struct {
	WorkDir    string                      `json:"workDir"`
	PulumiRoot string                      `json:"pulumiRoot"`
	Config     map[string]auto.ConfigValue `json:"config"`
	Second     struct {
		ApiUrl string `json:"apiUrl"`
		ApiKey string `json:"apiKey"`
	} `json:"second"`
}

func program(s settings) pulumi.RunFunc {
	return func(ctx *pulumi.Context) error {
		// The default provider: the stack config notify:apiUrl and notify:apiKey (secret).
		email, err := notify.NewIntegration(ctx, "sendgrid", &notify.IntegrationArgs{
			Identifier: pulumi.String("go-sendgrid"),
			Name:       pulumi.String("SendGrid (Go)"),
			ProviderId: pulumi.String("sendgrid"),
			Channel:    notify.ChannelEmail,
			Credentials: &notify.IntegrationCredentialsArgs{
				ApiKey: pulumi.String(SendgridKey),
				From:   pulumi.String("no-reply@example.com"),
			},
			Active: pulumi.Bool(true),
		})
		if err != nil {
			return err
		}
		slack, err := notify.NewIntegration(ctx, "slack", &notify.IntegrationArgs{
			Identifier: pulumi.String("go-slack"),
			Name:       pulumi.String("Slack (Go)"),
			ProviderId: pulumi.String("slack"),
			Channel:    notify.ChannelChat,
			Active:     pulumi.Bool(true),
		})
		if err != nil {
			return err
		}
		welcome, err := notify.NewWorkflow(ctx, "welcome", &notify.WorkflowArgs{
			WorkflowId:  pulumi.String("go-welcome"),
			Name:        pulumi.String("Welcome (Go)"),
			Description: pulumi.String("Declared by the Go program"),
			// Active: the service shows a subscriber's preference of a channel only while an active
			// workflow has a step of it, so the on-call's email preference below is compared.
			Active: pulumi.Bool(true),
			// On: the program declares its French translation below.
			IsTranslationEnabled: pulumi.Bool(true),
			Steps: notify.WorkflowStepArray{
				&notify.WorkflowStepArgs{Name: pulumi.String("Inbox"), Type: notify.WorkflowStepKindInApp, ControlValues: pulumi.Map{"body": pulumi.String("Hi {{subscriber.firstName}}")}},
				&notify.WorkflowStepArgs{Name: pulumi.String("Email"), Type: notify.WorkflowStepKindEmail, ControlValues: pulumi.Map{"subject": pulumi.String("Welcome"), "body": pulumi.String("<p>Hi</p>")}},
			},
		})
		if err != nil {
			return err
		}
		cred, err := notify.NewSubscriberCredentials(ctx, "alice-slack", &notify.SubscriberCredentialsArgs{
			SubscriberId:          pulumi.String("alice"),
			ProviderId:            pulumi.String("slack"),
			IntegrationIdentifier: slack.Identifier,
			Credentials:           &notify.ChannelCredentialsArgs{WebhookUrl: pulumi.String(SlackHook)},
		})
		if err != nil {
			return err
		}
		alice := notify.LookupSubscriberOutput(ctx, notify.LookupSubscriberOutputArgs{SubscriberId: pulumi.String("alice")})

		// The workflow's French copy: its id is the workflow's output, so the engine makes it after the workflow.
		french, err := notify.NewTranslation(ctx, "welcome-fr", &notify.TranslationArgs{
			ResourceType: notify.TranslationResourceTypeWorkflow,
			ResourceId:   welcome.WorkflowId,
			Locale:       pulumi.String("fr_FR"),
			Content:      pulumi.Map{"greeting": pulumi.String("Bonjour {{subscriber.firstName}}"), "email": pulumi.Map{"subject": pulumi.String("Bienvenue")}},
		})
		if err != nil {
			return err
		}
		acme, err := notify.NewContext(ctx, "acme", &notify.ContextArgs{
			Type:      pulumi.String("tenant"),
			ContextId: pulumi.String("go-acme"),
			Data:      pulumi.Map{"name": pulumi.String("Acme"), "plan": pulumi.String("pro")},
		})
		if err != nil {
			return err
		}
		// The environment's first layout, hence its default: destroy leaves it on the service, with a warning.
		if _, err := notify.NewLayout(ctx, "frame", &notify.LayoutArgs{
			LayoutId: pulumi.String("go-frame"),
			Name:     pulumi.String("Frame (Go)"),
		}); err != nil {
			return err
		}

		// A subscriber kept in code: its credentials and preferences take its SubscriberId output,
		// so the engine makes it first (the service refuses either for a subscriber it does not know).
		oncall, err := notify.NewSubscriber(ctx, "oncall", &notify.SubscriberArgs{
			SubscriberId: pulumi.String("go-oncall"),
			FirstName:    pulumi.String("On-call"),
			Email:        pulumi.String("oncall@example.com"),
			Timezone:     pulumi.String("Europe/Paris"),
			Data:         pulumi.Map{"team": pulumi.String("ops")},
		})
		if err != nil {
			return err
		}
		if _, err := notify.NewSubscriberCredentials(ctx, "oncall-slack", &notify.SubscriberCredentialsArgs{
			SubscriberId:          oncall.SubscriberId,
			ProviderId:            pulumi.String("slack"),
			IntegrationIdentifier: slack.Identifier,
			Credentials:           &notify.ChannelCredentialsArgs{WebhookUrl: pulumi.String(OncallHook)},
		}); err != nil {
			return err
		}
		// No e-mail, office hours on Mondays.
		preferences, err := notify.NewSubscriberPreferences(ctx, "oncall-global", &notify.SubscriberPreferencesArgs{
			SubscriberId: oncall.SubscriberId,
			Channels:     &notify.SubscriberPreferencesChannelsArgs{Email: pulumi.Bool(false)},
			Schedule: &notify.PreferenceScheduleArgs{
				IsEnabled: pulumi.Bool(true),
				WeeklySchedule: &notify.PreferenceScheduleWeeklyScheduleArgs{
					Monday: &notify.PreferenceDayScheduleArgs{
						IsEnabled: pulumi.Bool(true),
						Hours:     notify.PreferenceTimeRangeArray{&notify.PreferenceTimeRangeArgs{Start: pulumi.String("09:00 AM"), End: pulumi.String("05:00 PM")}},
					},
				},
			},
		})
		if err != nil {
			return err
		}
		incidents, err := notify.NewTopic(ctx, "incidents", &notify.TopicArgs{
			Key:  pulumi.String("go-incidents"),
			Name: pulumi.String("Incidents (Go)"),
		})
		if err != nil {
			return err
		}
		// Only the critical incidents of the welcome workflow reach the on-call.
		subscription, err := notify.NewTopicSubscription(ctx, "oncall-incidents", &notify.TopicSubscriptionArgs{
			Topic:      incidents.Key,
			Subscriber: oncall.SubscriberId,
			Identifier: pulumi.String("go-oncall-critical"),
			Name:       pulumi.String("On-call, critical only"),
			Preferences: notify.TopicSubscriptionPreferenceArray{&notify.TopicSubscriptionPreferenceArgs{
				WorkflowId: welcome.WorkflowId,
				Condition:  pulumi.Map{"==": pulumi.Array{pulumi.Map{"var": pulumi.String("payload.severity")}, pulumi.String("critical")}},
			}},
		})
		if err != nil {
			return err
		}
		// The tenant's Slack workspace, shared by the context (its id the Context's output, so the
		// context is the declared one, not one the service would make), and the on-call's channel in it.
		workspace, err := notify.NewChannelConnection(ctx, "acme-slack", &notify.ChannelConnectionArgs{
			Identifier:            pulumi.String("go-acme-slack"),
			IntegrationIdentifier: slack.Identifier,
			ConnectionMode:        notify.ChannelConnectionConnectionModeShared,
			Context:               pulumi.StringMap{"tenant": acme.ContextId},
			Workspace:             &notify.ChannelConnectionWorkspaceArgs{Id: pulumi.String("T0GO"), Name: pulumi.String("Acme (Go)")},
			Auth:                  &notify.ChannelConnectionAuthArgs{AccessToken: config.RequireSecret(ctx, "slackToken")},
		})
		if err != nil {
			return err
		}
		endpoint, err := notify.NewChannelEndpoint(ctx, "oncall-alerts", &notify.ChannelEndpointArgs{
			Identifier:            pulumi.String("go-oncall-alerts"),
			SubscriberId:          oncall.SubscriberId,
			IntegrationIdentifier: slack.Identifier,
			ConnectionIdentifier:  workspace.Identifier,
			Context:               pulumi.StringMap{"tenant": acme.ContextId},
			Type:                  notify.ChannelEndpointTypeSlackChannel,
			Endpoint:              &notify.ChannelEndpointEndpointArgs{ChannelId: pulumi.String("C0GO")},
		})
		if err != nil {
			return err
		}
		// An agent answering on the Slack integration, and the domain's `bot` address routed to it
		// (the environment is Development: the service takes agent links only there).
		bot, err := notify.NewAgent(ctx, "support-bot", &notify.AgentArgs{
			Identifier:   pulumi.String("go-support-bot"),
			Name:         pulumi.String("Support bot (Go)"),
			BridgeUrl:    pulumi.String("https://bots.example.com/go"),
			Behavior:     &notify.AgentBehaviorArgs{SubscriberAccess: notify.AgentBehaviorSubscriberAccessRestricted},
			Integrations: pulumi.StringArray{slack.Identifier},
		})
		if err != nil {
			return err
		}
		mail, err := notify.NewDomain(ctx, "mail", &notify.DomainArgs{
			Name: pulumi.String("go-mail.example.com"),
			Data: pulumi.StringMap{"owner": pulumi.String("ops")},
			Routes: notify.DomainRoutesMap{
				"support": &notify.DomainRoutesArgs{Type: notify.DomainRoutesTypeWebhook},
				"bot":     &notify.DomainRoutesArgs{Type: notify.DomainRoutesTypeAgent, AgentId: bot.Identifier},
			},
		})
		if err != nil {
			return err
		}

		// An explicit provider instance for a second environment (another API key), and an
		// integration made through it. The key is given in clear: the SDK marks it secret.
		second, err := notify.NewProvider(ctx, "second", &notify.ProviderArgs{
			ApiUrl: pulumi.String(s.Second.ApiUrl),
			ApiKey: pulumi.String(s.Second.ApiKey),
		})
		if err != nil {
			return err
		}
		other, err := notify.NewIntegration(ctx, "second-sendgrid", &notify.IntegrationArgs{
			Identifier: pulumi.String("go-second-sendgrid"),
			Name:       pulumi.String("SendGrid (second environment)"),
			ProviderId: pulumi.String("sendgrid"),
			Channel:    notify.ChannelEmail,
			Credentials: &notify.IntegrationCredentialsArgs{
				ApiKey: pulumi.String(SecondKey),
				From:   pulumi.String("no-reply@second.example.com"),
			},
			Active: pulumi.Bool(true),
		}, pulumi.Provider(second))
		if err != nil {
			return err
		}

		ctx.Export("id", email.ID())
		ctx.Export("integrationId", email.IntegrationId)
		ctx.Export("identifier", email.Identifier)
		ctx.Export("channel", email.Channel)
		ctx.Export("credentials", email.Credentials)
		ctx.Export("environmentId", email.EnvironmentId)
		ctx.Export("workflowId", welcome.WorkflowId)
		ctx.Export("welcomeSteps", welcome.Steps)
		ctx.Export("credId", cred.ID())
		ctx.Export("aliceName", alice.FirstName())
		ctx.Export("secondId", other.ID())
		ctx.Export("secondEnvironmentId", other.EnvironmentId)
		ctx.Export("translationId", french.ID())
		ctx.Export("contextKey", acme.Key)
		ctx.Export("domainStatus", mail.Status)
		ctx.Export("domainRecords", mail.ExpectedDnsRecords)
		ctx.Export("oncallId", oncall.ID())
		ctx.Export("subscriptionId", subscription.ID())
		ctx.Export("workspaceAuth", workspace.Auth)
		// Each new kind's read function, given the declared resource's output, so it reads after the write.
		// An AgentSummary cannot be a stack output whole: the generated Go struct holds the service's
		// `_id` as an unexported field (`_id`), which the SDK's marshalling panics on. So the program
		// exports the fields it reads.
		agents := notify.GetAgentsOutput(ctx, notify.GetAgentsOutputArgs{Identifier: bot.Identifier}).Agents()
		ctx.Export("agents", agents.ApplyT(func(list []notify.AgentSummary) []map[string]interface{} {
			out := make([]map[string]interface{}, len(list))
			for i, a := range list {
				out[i] = map[string]interface{}{"identifier": a.Identifier, "name": a.Name, "bridgeUrl": a.BridgeUrl, "behavior": a.Behavior, "integrations": a.Integrations}
			}
			return out
		}))
		ctx.Export("oncallPreferences", notify.LookupSubscriberPreferencesOutput(ctx, notify.LookupSubscriberPreferencesOutputArgs{SubscriberId: preferences.SubscriberId}).Global())
		ctx.Export("incidentSubscriptions", notify.GetTopicSubscriptionsOutput(ctx, notify.GetTopicSubscriptionsOutputArgs{TopicKey: subscription.Topic}).Subscriptions())
		ctx.Export("slackConnections", notify.GetChannelConnectionsOutput(ctx, notify.GetChannelConnectionsOutputArgs{IntegrationIdentifier: workspace.IntegrationIdentifier}).Connections())
		ctx.Export("workspaceEndpoints", notify.GetChannelEndpointsOutput(ctx, notify.GetChannelEndpointsOutputArgs{ConnectionIdentifier: endpoint.ConnectionIdentifier}).Endpoints())
		return nil
	}
}

// resourceDiff is what a preview's engine events say about one resource the engine plans to change.
type resourceDiff struct {
	Op       string            `json:"op"`
	Diffs    []string          `json:"diffs"`
	Detailed map[string]string `json:"detailed"`
}

// warning is a warning diagnostic of the engine: the URN of its resource ("" for none) and its message.
type warning struct {
	URN     string `json:"urn"`
	Message string `json:"message"`
}

// collect reads an operation's engine events until the Automation API closes the channel (when the
// operation ends); wait gives them, and the warning diagnostics among them, once it has.
func collect(ch <-chan events.EngineEvent) (wait func() ([]apitype.EngineEvent, []warning)) {
	var all []apitype.EngineEvent
	warnings := []warning{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for e := range ch {
			all = append(all, e.EngineEvent)
			if d := e.DiagnosticEvent; d != nil && d.Severity == "warning" {
				warnings = append(warnings, warning{URN: d.URN, Message: strings.TrimSpace(d.Message)})
			}
		}
	}()
	return func() ([]apitype.EngineEvent, []warning) {
		<-done
		return all, warnings
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
	os.Exit(1)
}

func main() {
	if len(os.Args) != 2 {
		fail("usage: %s <up|up-refresh|preview|preview-refresh|destroy>", os.Args[0])
	}
	op := os.Args[1]
	var s settings
	if err := json.NewDecoder(os.Stdin).Decode(&s); err != nil {
		fail("settings on stdin: %v", err)
	}
	ctx := context.Background()
	cmd, err := auto.NewPulumiCommand(&auto.PulumiCommandOptions{Root: s.PulumiRoot, SkipVersionCheck: true})
	if err != nil {
		fail("the Pulumi CLI at %s: %v", s.PulumiRoot, err)
	}
	stack, err := auto.UpsertStackInlineSource(ctx, "test", "notify-go", program(s), auto.WorkDir(s.WorkDir), auto.Pulumi(cmd))
	if err != nil {
		fail("stack: %v", err)
	}
	if err := stack.SetAllConfig(ctx, auto.ConfigMap(s.Config)); err != nil {
		fail("config: %v", err)
	}

	out := map[string]any{}
	ch := make(chan events.EngineEvent)
	wait := collect(ch)
	switch op {
	case "up", "up-refresh":
		opts := []optup.Option{optup.ProgressStreams(os.Stderr), optup.ErrorProgressStreams(os.Stderr), optup.EventStreams(ch)}
		if op == "up-refresh" {
			opts = append(opts, optup.Refresh())
		}
		res, err := stack.Up(ctx, opts...)
		if err != nil {
			fail("up: %v", err)
		}
		outputs := map[string]any{}
		for k, v := range res.Outputs {
			outputs[k] = map[string]any{"value": v.Value, "secret": v.Secret}
		}
		out["changes"] = res.Summary.ResourceChanges
		out["outputs"] = outputs
	case "preview", "preview-refresh":
		opts := []optpreview.Option{optpreview.ProgressStreams(os.Stderr), optpreview.ErrorProgressStreams(os.Stderr), optpreview.EventStreams(ch)}
		if op == "preview" {
			opts = append(opts, optpreview.ExpectNoChanges())
		} else {
			opts = append(opts, optpreview.Refresh(), optpreview.Diff())
		}
		res, err := stack.Preview(ctx, opts...)
		if err != nil {
			fail("preview: %v", err)
		}
		// The engine events, kept whole (the test looks for secrets in them) and read for each
		// resource's operation and diff.
		all, _ := wait()
		diffs := map[string]resourceDiff{}
		for _, e := range all {
			if e.ResourcePreEvent == nil {
				continue
			}
			m := e.ResourcePreEvent.Metadata
			if m.Op == apitype.OpSame || m.Op == apitype.OpRefresh || m.Type == "pulumi:pulumi:Stack" || strings.HasPrefix(m.Type, "pulumi:providers:") {
				continue
			}
			name := m.URN[strings.LastIndex(m.URN, "::")+2:]
			if _, seen := diffs[name]; seen && m.Op != apitype.OpReplace {
				continue
			}
			d := resourceDiff{Op: string(m.Op), Diffs: m.Diffs, Detailed: map[string]string{}}
			for k, pd := range m.DetailedDiff {
				d.Detailed[k] = string(pd.Kind)
			}
			diffs[name] = d
		}
		out["changes"] = res.ChangeSummary
		out["diffs"] = diffs
		out["events"] = all
		out["stdout"] = res.StdOut
	case "destroy":
		res, err := stack.Destroy(ctx, optdestroy.ProgressStreams(os.Stderr), optdestroy.ErrorProgressStreams(os.Stderr), optdestroy.EventStreams(ch))
		if err != nil {
			fail("destroy: %v", err)
		}
		out["changes"] = res.Summary.ResourceChanges
	default:
		fail("unknown operation %s", op)
	}
	// The API closes the channel when the operation ends.
	_, warnings := wait()
	out["warnings"] = warnings
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		fail("result: %v", err)
	}
}

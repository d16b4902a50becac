// Pulumi provider for a notification delivery service (integrations, workflows, subscriber credentials), with a local emulator of the service
package notify

// Pulumi provider for a notification delivery service (integrations, workflows, environments, layouts, topics and more), with a local emulator of the service
package notify

module github.com/pulumi-notify/pulumi-notify/sdk/go

go 1.25

require github.com/pulumi/pulumi/sdk/v3 v3.274.0

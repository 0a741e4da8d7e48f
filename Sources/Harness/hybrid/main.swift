import HybridCommands

// The default CLI: every command; `--otlp-endpoint` says to use `hybrid-otlp` (`make otlp`).
await HybridCommand.runCommandLine()

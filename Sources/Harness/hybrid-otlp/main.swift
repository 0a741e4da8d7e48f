import HybridCommands

// `hybrid` with `--otlp-endpoint` exporting through swift-otel (HybridOTLP). A second executable rather than a trait
// of the first, so `make run` builds no exporter and the two share every module in one build folder.
await SpanExporters.$start.withValue(OTLPSpanExport.start) {
    await HybridCommand.runCommandLine()
}

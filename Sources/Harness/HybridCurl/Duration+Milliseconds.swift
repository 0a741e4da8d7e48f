extension Duration {
    /// Whole milliseconds, rounded up so a tiny positive limit never becomes curl's "no limit" (0).
    var roundedUpMilliseconds: Int {
        let (seconds, attoseconds) = components
        let fromAtto = (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        if overflow || seconds < 0 { return seconds < 0 ? 0 : Int.max }
        return Int(clamping: product + fromAtto)
    }
}

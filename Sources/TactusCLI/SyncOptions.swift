import TactusCore

extension Options {
    /// The sync output `--sync-out`, `--sync-width` and `--sync-reset` ask for
    /// (docs/DESIGN.md §14); nil without `--sync-out`. A width or a reset
    /// without a kind, or a reset for a kind that has no reset line, is a
    /// mistake said in one line rather than ignored.
    public func syncSettings() throws(OptionError) -> SyncSettings? {
        guard let kind = syncKind else {
            if syncWidthMilliseconds != nil || syncReset != nil {
                throw OptionError("tactus: --sync-width and --sync-reset shape a sync track: give --sync-out KIND too (one of \(SyncKind.spellings.joined(separator: ", ")))")
            }
            return nil
        }
        if syncReset == .bar, case .ppqn = kind {} else if syncReset == .bar {
            throw OptionError("tactus: --sync-reset bar is for ppqn:N (a modular clock and reset); \(kind.spelling) has no reset line")
        }
        return SyncSettings(kind: kind, widthMilliseconds: syncWidthMilliseconds, reset: syncReset ?? .off)
    }
}

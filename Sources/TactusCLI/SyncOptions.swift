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

    /// The sync output of a live run: `syncSettings()`, and the ports
    /// `--connect-sync` and `--connect-sync-run` name must exist: a connection
    /// for a port that is not registered is a mistake said in one line.
    public func liveSyncSettings() throws(OptionError) -> SyncSettings? {
        let settings = try syncSettings()
        if settings == nil && !(connectSync.isEmpty && connectSyncRun.isEmpty) {
            throw OptionError("tactus: --connect-sync and --connect-sync-run connect the sync ports: give --sync-out KIND too (one of \(SyncKind.spellings.joined(separator: ", ")))")
        }
        if let settings, !settings.hasSecondLine && !connectSyncRun.isEmpty {
            throw OptionError("tactus: --connect-sync-run connects sync_run, the run line of din24 and din48 or the reset line of ppqn:N with --sync-reset bar; \(settings.kind.spelling)\(settings.isModular ? " without --sync-reset bar" : "") has none")
        }
        return settings
    }
}

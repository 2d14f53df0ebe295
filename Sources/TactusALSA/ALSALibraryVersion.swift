import CALSA

/// The libasound this process runs on, for `tactus --version` (a bug report needs it).
public enum ALSALibraryVersion {
    /// `snd_asoundlib_version()` (alsa/global.h): the run-time library's version, e.g. `1.2.8`,
    /// not the headers' `SND_LIB_VERSION_STR`.
    public static var string: String {
        String(cString: snd_asoundlib_version())
    }
}

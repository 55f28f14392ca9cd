import Foundation

/// How many rounds a long robustness loop (kill -9 at random moments, soak cycles) runs. The
/// plain build runs them all: that run hunts for the rare timing. Under a sanitizer
/// (`FOLIO_SANITIZER`, several times slower) a few rounds take every path the sanitizer is
/// there to watch, and the suite stays within CI's time.
public enum TestBudget {
    public static var sanitized: Bool { ProcessInfo.processInfo.environment["FOLIO_SANITIZER"] != nil }

    public static func rounds(_ plain: Int, sanitized few: Int) -> Int {
        sanitized ? min(plain, few) : plain
    }
}

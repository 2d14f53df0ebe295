import Foundation
import Testing
@testable import TactusCore

@Suite("Process environment from environ")
struct ProcessEnvironmentTests {
    @Test func aValueWithAnEqualsSignIsKeptWholeAndAnEmptyValueIsKept() {
        setenv("TACTUS_TEST_ENVIRONMENT", "a=b=c", 1)
        setenv("TACTUS_TEST_EMPTY", "", 1)
        defer { unsetenv("TACTUS_TEST_ENVIRONMENT"); unsetenv("TACTUS_TEST_EMPTY") }
        let environment = ProcessEnvironment.current
        #expect(environment["TACTUS_TEST_ENVIRONMENT"] == "a=b=c")
        #expect(environment["TACTUS_TEST_EMPTY"] == "")
        #expect(environment["HOME"] == ProcessInfo.processInfo.environment["HOME"])
    }
}

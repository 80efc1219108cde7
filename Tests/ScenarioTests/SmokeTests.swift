import Foundation
import Testing
@testable import Scenario

@Test func smoke() throws {
    let text = """
    scenario "x"
    entity Note {
      title: Strin = ""
      folder: Folder
      lastOpened: Date
      sync except(lastOpened, nope)
    }
    entity Folder {
      notes: [Note] inverse(foldr)
    }
    account alice
    device laptop on alice
    device phone on alcie
    lapotp: insert Note n1 title=3
    laptop: updat n1
    wait 5
    wait 1.0000001s
    at 5ms
    wait 99999999999999999999s
    laptop: sync &
    laptop: kill &
    expect laptop: n2 title="x"
    expect fired sync-4
    when laptop reaches download.don: cloud: outage for 1s
    cloud: reject n1 with serverRejected
    device tablet
    "unterminated
    laptop: insert Note n3 title="\\q" é
    """
    let result = ScenarioChecker.check(source: text, file: "t.scenario")
    for d in result.diagnostics { print(d.renderedWithNotes) }
}

import Foundation
import NotesLab
import SyncLabCLI

// `synclab`'s command line with the notes app registered as the engine `notes`.
exit(SyncLabCLI.main(Array(CommandLine.arguments.dropFirst()), lab: notesLab()))

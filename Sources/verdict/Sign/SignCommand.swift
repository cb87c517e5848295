import ArgumentParser

/// `verdict sign …`: signatures StoreKit accepts, made with your own In-App Purchase key.
struct SignCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Create offer signatures with an In-App Purchase key (.p8).",
        subcommands: [PromotionalOfferCommand.self]
    )
}

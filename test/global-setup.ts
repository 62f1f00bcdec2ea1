// Placeholder until the fixture generator lands (being written now).
export default function setup(): void {}

export function Component() {
  return (
    <section className="mx-auto max-w-3xl px-4 py-12">
      <title>Verify your email · Tutorlane</title>
      <h1 className="text-3xl font-bold">Verify your email</h1>
    </section>
  );
}

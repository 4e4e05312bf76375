export function Component() {
  return (
    <section className="mx-auto max-w-3xl px-4 py-12">
      <title>Tutorlane: find your tutor</title>
      <h1 className="text-3xl font-bold">Learn with the right tutor</h1>
    </section>
  );
}

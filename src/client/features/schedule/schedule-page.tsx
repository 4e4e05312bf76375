export function Component() {
  return (
    <section className="mx-auto max-w-3xl px-4 py-12">
      <title>Schedule · Tutorlane</title>
      <h1 className="text-3xl font-bold">Schedule</h1>
    </section>
  );
}
